import { Box, Heading, Text } from '@chakra-ui/react';
import { Card } from './page';
import { ViewingDelayBadge } from './viewing-delay-badge';
import { ViewingDelayChooser } from './viewing-delay-chooser';

/** Settings' "No spoilers" card: what this device watches the draft on. */
export function ViewingDelaySetting() {
  return (
    <Card as="section" aria-labelledby="viewing-delay-heading">
      <Heading as="h2" id="viewing-delay-heading" size="lg" mb="2" color="navy.900">
        No spoilers
      </Heading>
      <Text color="gray.600" mb="4">
        TV runs several seconds behind the draft room and streams 30 to 60 seconds. Say what you watch on, and this
        device shows each pick, the standings and the notifications only when your screen does. Remembered on this
        device only.
      </Text>
      <ViewingDelayChooser />
      <Box mt="3">
        <ViewingDelayBadge />
      </Box>
    </Card>
  );
}
