import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { EventSource } from 'eventsource';
import { createTRPCClient, httpSubscriptionLink } from '@trpc/client';
import type { AppRouter } from '@first-round/server/router';
import type { DraftChangesInput } from '@first-round/shared/schemas';
import { LiveConnection } from './live-connection';

/*
 * The connection over tRPC's own SSE link, as the web app holds it (components/draft-live.tsx), against a
 * stand-in server writing the frames the game's SSE route writes (server/src/wire/sse-frames.ts; the server's
 * tests hold the route to them, server/test/live-slow-readers.test.ts the reason below).
 */

const CONNECTED = 'event: connected\ndata: {"reconnectAfterInactivityMs":40000}\n\n\n';
const frame = (data: unknown, id: number) => `data: ${JSON.stringify(data)}\nid: ${id}\n\n\n`;
/** How the server closes a stream that fell behind (live/hub.ts, `fellBehind`): a 429, not one tRPC retries itself. */
const FELL_BEHIND = `event: serialized-error\ndata: ${JSON.stringify({
  message: 'This live stream fell behind: its connection did not take what was sent. Reconnect from the last event id seen.',
  code: -32029,
  data: { code: 'TOO_MANY_REQUESTS', httpStatus: 429, path: 'draft.changes', kind: 'TOO_MANY_REQUESTS' },
})}\n\n\n`;

let server: http.Server | undefined;
let connection: LiveConnection | undefined;
afterEach(() => {
  connection?.stop();
  server?.closeAllConnections();
  server?.close();
});

async function until(check: () => boolean) {
  for (let i = 0; i < 1000 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
}

describe('a live stream the server closed because it fell behind', () => {
  it('is subscribed again from the last event id the page saw, over tRPC’s link', async () => {
    const inputs: DraftChangesInput[] = [];
    server = http.createServer((req, res) => {
      const input = new URL(req.url!, 'http://stand-in').searchParams.get('input');
      inputs.push(input ? (JSON.parse(input) as DraftChangesInput) : {});
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform' });
      res.write(CONNECTED);
      // The first stream: a change, then the reason, then the end. The next one stays open.
      if (inputs.length === 1) res.end(frame({ kind: 'undo', event_id: 41, slot: 3 }, 41) + FELL_BEHIND);
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const client = createTRPCClient<AppRouter>({ links: [httpSubscriptionLink({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/trpc`, EventSource })] });
    const changes: number[] = [];
    connection = new LiveConnection({
      transport: {
        subscribe: (input, handlers) =>
          client.draft.changes.subscribe(input, {
            onStarted: handlers.onStarted,
            onData: (event) => handlers.onData(event.id, event.data),
            onConnectionStateChange: (state) => handlers.onConnectionStateChange(state.state, state.error),
            onError: handlers.onError,
            onComplete: handlers.onComplete,
          }),
        readStatus: () => new Promise(() => {}),
      },
      cachedStatus: () => undefined,
      onChange: (change) => changes.push(change.event_id),
      onStandings: () => {},
      onStale: () => {},
    });
    connection.start();
    await until(() => inputs.length >= 2);
    expect(changes).toEqual([41]);
    expect(inputs[0]).toMatchObject({ lastEventId: null });
    expect(inputs[1]).toMatchObject({ lastEventId: '41' });
  });
});
