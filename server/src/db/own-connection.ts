import pg from 'pg';

/**
 * A PostgreSQL connection of the server's own, beside the ORM's pool: for what lives as long as a session
 * (an advisory lock held to be the one instance doing something, LISTEN) or must not wait for a pooled
 * connection (the migration lock, the embedded cluster's first sign-in). Every such connection is made
 * here, and nowhere else in the server.
 *
 * node-postgres emits 'error' on a client whose connection fails at any moment after it connected (mid-
 * query included: the query is rejected and the client emits 'error' besides), and an 'error' nobody
 * listens to ends the process. So the listeners are attached before connecting and stay for the client's
 * whole life: a database that goes away while this connects, runs a query or sits idle costs the
 * connection, never the server. A failed `connect` leaves nothing open and throws; a loss once connected
 * is told to `onLost`, once, and never after `close` (the owner then opens a new one when it wants).
 */
export class OwnConnection {
  private readonly client: pg.Client;
  private state: 'new' | 'connecting' | 'open' | 'lost' | 'closed' = 'new';
  /** A loss while connecting: `connect` throws it. */
  private lostWhileConnecting: Error | undefined;

  /**
   * `config`: node-postgres's (a connection string, `application_name` so operators and tests can find it
   * in pg_stat_activity); connecting gives up after 10 s unless it says otherwise. `onLost`: the
   * connection went after it was made (the database restarting, the network).
   */
  constructor(
    config: pg.ClientConfig,
    private readonly onLost?: (error: Error) => void,
  ) {
    this.client = new pg.Client({ connectionTimeoutMillis: 10_000, ...config });
    this.client.on('error', (error) => this.lost(error));
    this.client.on('end', () => this.lost(new Error('Connection ended')));
  }

  /** Connected and not lost or closed since. */
  get isOpen(): boolean {
    return this.state === 'open';
  }

  async connect(): Promise<void> {
    this.state = 'connecting';
    try {
      await this.client.connect();
      if (this.lostWhileConnecting) throw this.lostWhileConnecting;
      // Closed meanwhile: the owner no longer wants it.
      if (this.state !== 'connecting') throw new Error('Connection closed while connecting');
      this.state = 'open';
    } catch (error) {
      await this.close();
      throw error;
    }
  }

  query<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>> {
    return this.client.query<R>(text, values);
  }

  /** NOTIFY messages on the channels this connection LISTENs to. */
  onNotification(listener: (message: pg.Notification) => void): void {
    this.client.on('notification', listener);
  }

  /** Ends the connection (with it, the session's advisory locks); never throws, and `onLost` is not called. */
  async close(): Promise<void> {
    if (this.state === 'closed') return;
    this.state = 'closed';
    await this.client.end().catch(() => {});
  }

  private lost(error: Error) {
    if (this.state === 'connecting') this.lostWhileConnecting ??= error;
    if (this.state !== 'open') return;
    this.state = 'lost';
    this.onLost?.(error);
  }
}
