import http from 'node:http';
import https from 'node:https';

/**
 * POSTs encrypted pushes to push services over kept-alive connections (node:http/https, not fetch). At a pick
 * thousands go to a handful of services (FCM, Mozilla's, Apple's): one pool of connections per service, at
 * most `maxSockets` each, reused from push to push. Measured at 5,000 pushes in `npm run bench:draft`, fetch
 * spent ~1.7 ms of the event loop per push (its streams, AbortSignal and Headers), several seconds per pick
 * beside the live pages; a plain request costs a small fraction of that.
 */
export class PushTransport {
  private readonly http: http.Agent;
  private readonly https: https.Agent;

  constructor(maxSockets: number) {
    const options = { keepAlive: true, maxSockets, scheduling: 'lifo' as const };
    this.http = new http.Agent(options);
    this.https = new https.Agent(options);
  }

  /**
   * Answers the push service's status once its answer has been read. Rejects on a network error, or when the
   * service sends nothing for `timeoutMs` (the push then counts as not sent and is tried again).
   */
  post(endpoint: string, headers: Record<string, string | number>, body: Buffer, timeoutMs: number): Promise<number> {
    const url = new URL(endpoint);
    const secure = url.protocol === 'https:';
    if (!secure && url.protocol !== 'http:') return Promise.reject(new Error(`not an http(s) endpoint: ${url.protocol}`));
    return new Promise((resolve, reject) => {
      const request = (secure ? https : http).request(url, { method: 'POST', headers, agent: secure ? this.https : this.http, timeout: timeoutMs }, (response) => {
        // The body is drained (nothing in it matters) so the connection goes back to the pool.
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.on('error', reject);
      });
      request.on('timeout', () => request.destroy(new Error(`no answer from the push service in ${timeoutMs} ms`)));
      request.on('error', reject);
      request.end(body);
    });
  }

  /** Closes the idle connections (the sender stopped). */
  close(): void {
    this.http.destroy();
    this.https.destroy();
  }
}
