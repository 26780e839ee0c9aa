import net from 'node:net';

/**
 * A TCP port free on the loopback interface right now (the OS picks it; closed again before it is used):
 * the embedded PostgreSQL's port, and the servers tests and benchmarks start.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
