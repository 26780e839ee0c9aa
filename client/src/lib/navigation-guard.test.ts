import { describe, expect, it } from 'vitest';
import { UNSAFE_createMemoryHistory } from 'react-router-dom';
import { NavigationGuard } from './navigation-guard';

/** A router's view: the guarded history, and every location the router was told of. */
function setUp(entries = ['/groups', '/select-players']) {
  const inner = UNSAFE_createMemoryHistory({ initialEntries: entries, initialIndex: entries.length - 1, v5Compat: true });
  const guard = new NavigationGuard(inner, { go: (delta) => inner.go(delta) });
  const heard: string[] = [];
  guard.history.listen((u) => heard.push(`${u.action} ${u.location.pathname}${u.location.search}`));
  return { guard, inner, heard, at: () => `${guard.history.location.pathname}${guard.history.location.search}` };
}

describe('NavigationGuard', () => {
  it('lets every navigation through while nothing asks', () => {
    const { guard, heard, at } = setUp();
    guard.history.push('/my-picks');
    guard.history.replace('/leaderboard');
    expect(heard).toEqual(['PUSH /my-picks', 'REPLACE /leaderboard']);
    expect(at()).toBe('/leaderboard');
  });

  it('holds a push until the player answers: stay drops it, leave makes it', () => {
    const { guard, heard, at } = setUp();
    const seen: boolean[] = [];
    guard.subscribe(() => seen.push(guard.isHolding()));
    guard.setQuestion(() => true);
    guard.history.push('/groups');
    expect(guard.isHolding()).toBe(true);
    expect(at()).toBe('/select-players');
    guard.cancel();
    expect(guard.isHolding()).toBe(false);
    expect(heard).toEqual([]);
    guard.history.push({ pathname: '/my-picks', search: '' });
    guard.proceed();
    expect(heard).toEqual(['PUSH /my-picks']);
    expect(seen).toEqual([true, false, true, false]);
  });

  it('asks only about another screen, and as the question says', () => {
    const { guard, heard } = setUp();
    guard.setQuestion((to) => to.pathname !== '/my-picks');
    // The same screen (a query string the same too) is no navigation to ask about.
    guard.history.replace('/select-players');
    guard.history.push('/my-picks');
    expect(heard).toEqual(['REPLACE /select-players', 'PUSH /my-picks']);
    guard.history.push('/groups/12');
    expect(guard.isHolding()).toBe(true);
  });

  it('undoes Back before the router hears it, and redoes it when the player leaves', () => {
    const { guard, heard, at } = setUp(['/groups', '/my-picks', '/select-players']);
    guard.setQuestion(() => true);
    guard.history.go(-1);
    // The router never saw /my-picks: the browser is back on the selection screen, and the player is asked.
    expect(heard).toEqual([]);
    expect(at()).toBe('/select-players');
    expect(guard.isHolding()).toBe(true);
    guard.proceed();
    expect(heard).toEqual(['POP /my-picks']);
    expect(at()).toBe('/my-picks');
    // Staying after Back: nothing moves.
    guard.history.go(1);
    expect(heard).toEqual(['POP /my-picks']);
    guard.cancel();
    expect(at()).toBe('/my-picks');
  });

  it('stops asking, and drops a held navigation, when the screen lets go', () => {
    const { guard, heard } = setUp();
    guard.setQuestion(() => true);
    guard.history.push('/groups');
    guard.setQuestion(null);
    expect(guard.isHolding()).toBe(false);
    guard.history.push('/leaderboard');
    expect(heard).toEqual(['PUSH /leaderboard']);
  });
});
