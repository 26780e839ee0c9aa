import { Button } from '@chakra-ui/react';
import { Link } from 'react-router-dom';

/** 'TV view': the group's watch-party screen (/groups/{id}/tv), for a TV or a projector in the room. */
export function TvViewLink({ groupId }: { groupId: number }) {
  return (
    <Button asChild variant="outline" size="sm" alignSelf="flex-start" borderColor="navy.900" color="navy.900">
      <Link to={`/groups/${groupId}/tv`}>
        TV view <span aria-hidden>→</span>
      </Link>
    </Button>
  );
}
