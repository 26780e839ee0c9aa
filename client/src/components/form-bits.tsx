/** Form fields (a text input with its label, help and error) and the form-level alert. The primary button is in buttons.tsx: screens without a form do not load an input. */
import { Field, Input, Text, type InputProps } from '@chakra-ui/react';
import type { ReactNode } from 'react';

export function TextField({ label, error, helper, ...input }: { label: string; error?: string | null; helper?: ReactNode } & InputProps) {
  return (
    <Field.Root invalid={Boolean(error)}>
      <Field.Label fontWeight="semibold">{label}</Field.Label>
      <Input size="lg" bg="white" {...input} />
      {helper && !error && <Field.HelperText>{helper}</Field.HelperText>}
      {error && <Field.ErrorText>{error}</Field.ErrorText>}
    </Field.Root>
  );
}

/** A form-level error (provider failures), announced to screen readers. */
export function FormAlert({ children }: { children: ReactNode }) {
  return (
    <Text role="alert" color="red.600" fontWeight="semibold" fontSize="sm" bg="red.50" borderRadius="md" px="3" py="2">
      {children}
    </Text>
  );
}
