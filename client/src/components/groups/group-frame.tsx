import type { FormEvent, ReactNode } from 'react';
import { Button, Flex, IconButton, Stack, Text } from '@chakra-ui/react';
import { Link } from 'react-router-dom';
import { BackIcon } from '../icons';
import { Card, Page } from '../page';
import { PrimaryButton } from '../buttons';
import { FormAlert } from '../form-bits';

/** The back arrow above a group's title. */
export function BackTo({ to, label }: { to: string; label: string }) {
  return (
    <IconButton asChild aria-label={label} variant="ghost" size="sm" alignSelf="flex-start" ms="-2" color="navy.900">
      <Link to={to}>
        <BackIcon />
      </Link>
    </IconButton>
  );
}

/** The create and join pages: a card holding `notice`, the fields, the form's error, then Cancel and the submit button. */
export function GroupFormPage({
  title,
  subtitle,
  notice,
  onSubmit,
  error,
  submitLabel,
  submitting,
  disabled,
  children,
}: {
  title: string;
  subtitle: string;
  notice?: ReactNode;
  onSubmit: (e: FormEvent) => Promise<void>;
  error: string | null;
  submitLabel: string;
  submitting: boolean;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <Page title={title} subtitle={subtitle} maxW="xl">
      <Card>
        {notice}
        <form onSubmit={(e) => void onSubmit(e)} noValidate>
          <Stack gap="5">
            {children}
            {error && <FormAlert>{error}</FormAlert>}
            <Flex gap="3" justify="flex-end" wrap="wrap">
              <Button asChild size="lg" variant="outline">
                <Link to="/groups">Cancel</Link>
              </Button>
              <PrimaryButton type="submit" loading={submitting} disabled={disabled}>
                {submitLabel}
              </PrimaryButton>
            </Flex>
          </Stack>
        </form>
      </Card>
    </Page>
  );
}

/**
 * The group page's failure state. (The original app's other one, 'Database Inconsistency Detected' for a
 * 'Multiple rows were found' message, cannot happen here: a membership is one row by its primary key,
 * and the client does not read meaning into an error's wording.)
 */
export function GroupLoadError({ message }: { message: string }) {
  return (
    <Page title="Failed to load group details" before={<BackTo to="/groups" label="Back to My Groups" />} maxW="xl">
      <Card borderColor="red.200">
        <Stack gap="4">
          <Text role="alert" color="gray.800" wordBreak="break-word">
            {message}
          </Text>
          <PrimaryButton asChild alignSelf="flex-start">
            <Link to="/groups">Back to My Groups</Link>
          </PrimaryButton>
        </Stack>
      </Card>
    </Page>
  );
}
