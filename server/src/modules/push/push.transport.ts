import http from 'node:http';
import https from 'node:https';
import { checkEndpoint, guardedLookup, isLoopbackAddress, isPublicAddress, systemLookup, type PushEndpointPolicy, type PushLookup } from './endpoint-policy.js';

export interface PushTransportOptions {
  /** Connections kept per push service (origin): the sender's share for one service. */
  maxSocketsPerOrigin: number;
  /** Where pushes may go (endpoint-policy.ts). */
  policy: PushEndpointPolicy;
  /** How host names are resolved (`dns.lookup` by default). */
  lookup?: PushLookup;
}

/**
 * POSTs encrypted pushes to push services over kept-alive connections (node:http/https, not fetch). At a pick
 * thousands go to a handful of services (FCM, Mozilla's, Apple's): one pool of connections per service, at
 * most `maxSocketsPerOrigin` each, reused from push to push. Measured at 5,000 pushes in `npm run bench:draft`,
 * fetch spent ~1.7 ms of the event loop per push (its streams, AbortSignal and Headers), several seconds per
 * pick beside the live pages; a plain request costs a small fraction of that.
 *
 * Every push is checked against the policy first, and every new connection when it is made: the agents'
 * `lookup` resolves the name once, refuses it unless each address is public (loopback for the plain-http
 * stand-in) and connects to the addresses it checked. Node skips `lookup` for an address literal, which
 * `checkEndpoint` has judged already. Redirects are not followed (node:http never does): a 3xx is the
 * service's answer, and not a success.
 */
export class PushTransport {
  private readonly http: http.Agent;
  private readonly https: https.Agent;

  constructor(private readonly options: PushTransportOptions) {
    const resolve = options.lookup ?? systemLookup;
    const shared = { keepAlive: true, maxSockets: options.maxSocketsPerOrigin, scheduling: 'lifo' as const };
    this.http = new http.Agent({ ...shared, lookup: guardedLookup(resolve, isLoopbackAddress, 'plain http resolves off this machine') });
    this.https = new https.Agent({ ...shared, lookup: guardedLookup(resolve, isPublicAddress, 'resolves to an address that is not public') });
  }

  /**
   * Answers the push service's status once its answer has been read. Rejects with PushEndpointRefused when
   * the policy refuses the endpoint or its addresses (not to be tried again); with another error on a network
   * error, or when the whole exchange takes longer than `timeoutMs` (the push then counts as not sent and is
   * tried again).
   */
  post(endpoint: string, headers: Record<string, string | number>, body: Buffer, timeoutMs: number): Promise<number> {
    let target: ReturnType<typeof checkEndpoint>;
    try {
      target = checkEndpoint(this.options.policy, endpoint);
    } catch (error) {
      return Promise.reject(error as Error);
    }
    const { url, loopback } = target;
    return new Promise((resolve, reject) => {
      const request = (loopback ? http : https).request(url, { method: 'POST', headers, agent: loopback ? this.http : this.https }, (response) => {
        // The body is drained (nothing in it matters) so the connection goes back to the pool.
        response.resume();
        response.on('end', () => {
          clearTimeout(deadline);
          resolve(response.statusCode ?? 0);
        });
        response.on('error', (error) => {
          clearTimeout(deadline);
          reject(error);
        });
      });
      // One deadline for the whole exchange (connecting, sending, the answer and its body), not an idle
      // timeout: a service that trickles a byte now and then cannot hold a request past it either.
      const deadline = setTimeout(() => request.destroy(new Error(`no answer from the push service in ${timeoutMs} ms`)), timeoutMs);
      request.on('error', (error) => {
        clearTimeout(deadline);
        reject(error);
      });
      request.end(body);
    });
  }

  /** Closes the idle connections (the sender stopped). */
  close(): void {
    this.http.destroy();
    this.https.destroy();
  }
}
