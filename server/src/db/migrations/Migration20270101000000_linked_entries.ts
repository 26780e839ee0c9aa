import { Migration } from '@mikro-orm/migrations';

/**
 * One entry that follows you (docs/decisions.md). Every membership now starts linked to My Picks
 * (`use_global_picks` true: the member plays their global picks in the group, and every edit of My Picks
 * reaches it); a member forks on purpose to play picks of their own. Existing memberships become what
 * their data say:
 * - already linked (true): stay linked; group picks they may have left from before were never their
 *   entry and are dropped;
 * - not linked, with no group picks (their entry here was empty: "No picks yet" beside picks on My Picks),
 *   or with group picks that are exactly their global ones (a "Reuse Picks" copy never changed since):
 *   become linked, and the copy is dropped;
 * - not linked, with group picks that differ from their global ones: keep their own picks.
 * Afterwards a linked membership never has group picks (the service keeps it so: linking drops them,
 * saving group picks unlinks). The data change is not undone by `down`, which only restores the default.
 */
export class Migration20270101000000_linked_entries extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table group_membership alter column use_global_picks set default true;`);
    this.addSql(`
      update group_membership m
         set use_global_picks = true
       where not m.use_global_picks
         and not exists (select player_id from pick k where k.participant_id = m.participant_id and k.group_id = m.group_id
                         except
                         select player_id from pick k where k.participant_id = m.participant_id and k.group_id = 1)
         and (not exists (select 1 from pick k where k.participant_id = m.participant_id and k.group_id = m.group_id)
              or not exists (select player_id from pick k where k.participant_id = m.participant_id and k.group_id = 1
                             except
                             select player_id from pick k where k.participant_id = m.participant_id and k.group_id = m.group_id));
    `);
    this.addSql(`
      delete from pick k
       using group_membership m
       where k.group_id = m.group_id and k.participant_id = m.participant_id and m.use_global_picks;
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table group_membership alter column use_global_picks set default false;`);
  }
}
