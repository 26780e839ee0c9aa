import type { ReactNode } from 'react';
import { Box, chakra, Flex, Text } from '@chakra-ui/react';

const Checkbox = chakra('input');

/**
 * A yes/no setting: a native checkbox (navy, the size of the text), its label and a hint under it that the
 * box points at (aria-describedby); `children` (an error, say) go under the hint. The one way the app
 * draws a setting: group options on Create, the owner's member invites, the reminders in Settings.
 */
export function CheckboxOption({
  id,
  label,
  hint,
  checked,
  disabled,
  onChange,
  children,
}: {
  id: string;
  label: ReactNode;
  hint: ReactNode;
  checked: boolean;
  disabled?: boolean;
  onChange: (checked: boolean) => void;
  children?: ReactNode;
}) {
  return (
    <Flex gap="3" align="flex-start">
      <Checkbox
        id={id}
        type="checkbox"
        checked={checked}
        disabled={disabled}
        onChange={(e) => onChange(e.target.checked)}
        aria-describedby={`${id}-hint`}
        mt="1"
        boxSize="4.5"
        flexShrink={0}
        css={{ accentColor: 'var(--chakra-colors-navy-900)' }}
        cursor="pointer"
      />
      <Box>
        <chakra.label htmlFor={id} fontWeight="semibold" cursor="pointer">
          {label}
        </chakra.label>
        <Text id={`${id}-hint`} fontSize="sm" color="gray.600">
          {hint}
        </Text>
        {children}
      </Box>
    </Flex>
  );
}
