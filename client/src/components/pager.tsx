import { Button, Flex, Text } from '@chakra-ui/react';

/** 'Showing 101–200 of 302' with Previous and Next, when the list is longer than a page. */
export function Pager({ total, offset, limit, onPage, label }: { total: number; offset: number; limit: number; onPage: (offset: number) => void; label: string }) {
  if (total <= limit) return null;
  const last = Math.min(total, offset + limit);
  return (
    <Flex as="nav" aria-label={label} align="center" justify="space-between" gap="2" mt="2">
      <Button size="sm" variant="outline" bg="white" disabled={offset === 0} onClick={() => onPage(Math.max(0, offset - limit))}>
        Previous
      </Button>
      <Text fontSize="sm" color="gray.700" aria-live="polite">
        {offset + 1}–{last} of {total}
      </Text>
      <Button size="sm" variant="outline" bg="white" disabled={last >= total} onClick={() => onPage(offset + limit)}>
        Next
      </Button>
    </Flex>
  );
}
