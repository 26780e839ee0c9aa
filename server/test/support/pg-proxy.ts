import net from 'node:net';

/**
 * A TCP proxy in front of PostgreSQL, for tests of what a client does when the database goes away at a
 * given moment. Everything passes through, except that the queries of a connection whose
 * `application_name` the test holds (its first Query or Parse message and all after it) are kept back:
 * its client then waits on a query the database never got, as it would behind a slow network, for as long
 * as the test likes, and the test can kill PostgreSQL in exactly that moment. The database's end of a
 * connection closing or resetting closes or resets the client's end the same way.
 */
export interface PgProxy {
  port: number;
  /** Keeps back the queries of connections named `applicationName` from now on (those already open too). */
  hold(applicationName: string): void;
  /** Lets new queries of connections named so through again (queries kept back stay kept). */
  release(applicationName: string): void;
  /** Connections named `applicationName` with a query kept back, ever (open or closed since). */
  heldSoFar(applicationName: string): number;
  close(): Promise<void>;
}

/** SSLRequest and GSSENCRequest: answered by one byte, then the real startup message follows. */
const ENCRYPTION_REQUESTS = new Set([80_877_103, 80_877_104]);

export async function startPgProxy(target: { host?: string; port: number }): Promise<PgProxy> {
  const holding = new Set<string>();
  const heldCount = new Map<string, number>();
  const sockets = new Set<net.Socket>();

  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host ?? '127.0.0.1');
    sockets.add(client);
    sockets.add(upstream);
    client.on('close', () => sockets.delete(client));
    upstream.on('close', () => sockets.delete(upstream));

    let name = '';
    let started = false;
    let held = false;
    let pending = Buffer.alloc(0);
    const hold = () => {
      held = true;
      heldCount.set(name, (heldCount.get(name) ?? 0) + 1);
    };
    client.on('data', (chunk: Buffer) => {
      if (held) return; // kept back: the database never sees it
      pending = Buffer.concat([pending, chunk]);
      // Whole messages only: the startup message (length first), then typed ones (type byte, length).
      for (;;) {
        if (!started) {
          if (pending.length < 8) return;
          const length = pending.readInt32BE(0);
          if (pending.length < length) return;
          const code = pending.readInt32BE(4);
          if (!ENCRYPTION_REQUESTS.has(code)) {
            started = true;
            const fields = pending.subarray(8, length - 1).toString('utf8').split('\0');
            for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i] === 'application_name') name = fields[i + 1]!;
          }
          upstream.write(pending.subarray(0, length));
          pending = pending.subarray(length);
          continue;
        }
        if (pending.length < 5) return;
        const length = pending.readInt32BE(1) + 1;
        if (pending.length < length) return;
        const type = String.fromCharCode(pending[0]!);
        if ((type === 'Q' || type === 'P') && holding.has(name)) {
          hold();
          pending = Buffer.alloc(0);
          return;
        }
        upstream.write(pending.subarray(0, length));
        pending = pending.subarray(length);
      }
    });
    upstream.on('data', (chunk: Buffer) => client.write(chunk));
    // The database closing its end (a backend killed, the postmaster gone) closes the client's; a reset resets it.
    upstream.on('end', () => client.end());
    upstream.on('error', () => client.resetAndDestroy());
    client.on('end', () => upstream.end());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    hold: (applicationName) => void holding.add(applicationName),
    release: (applicationName) => void holding.delete(applicationName),
    heldSoFar: (applicationName) => heldCount.get(applicationName) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
