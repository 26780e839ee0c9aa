import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { importJWK, jwtVerify } from 'jose';

/*
 * A push service stand-in, for tests and the bench without the internet: one HTTP endpoint per device
 * (`/push/<id>`) that does what a real push service's receiving end and the device together do with a
 * notification: checks the VAPID JWT (RFC 8292: ES256 under the `k` key, audience this origin, not expired),
 * decrypts the aes128gcm payload (RFC 8188 record, RFC 8291 keys) with the device's private key and auth
 * secret, records it and answers 201. A device can be told to answer something else (404/410: gone).
 */

/** A device as the browser holds it: its key pair and auth secret, and the subscription it gives the server. */
export interface StandInDevice {
  id: string;
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } };
  ecdh: crypto.ECDH;
  authSecret: Buffer;
}

export interface ReceivedPush {
  deviceId: string;
  /** The decrypted payload, parsed as JSON when it is JSON. */
  payload: unknown;
  /** The decrypted payload as sent: what a browser test hands the service worker. */
  text: string;
  at: number;
  ttl: string | undefined;
  topic: string | undefined;
  urgency: string | undefined;
}

const b64u = (buffer: Buffer) => buffer.toString('base64url');

/**
 * Keys as a browser's subscription carries them (p256dh a fresh P-256 public key, auth 16 random bytes), for a
 * device whose pushes nobody reads (its endpoint elsewhere than the stand-in).
 */
export function pushDeviceKeys(): { p256dh: string; auth: string } {
  const ecdh = crypto.createECDH('prime256v1');
  ecdh.generateKeys();
  return { p256dh: b64u(ecdh.getPublicKey()), auth: b64u(crypto.randomBytes(16)) };
}

/** RFC 8291 §3.4 and RFC 8188 §2: the content key and nonce, then the one record's plaintext without its padding. */
export function decryptAes128gcm(body: Buffer, device: Pick<StandInDevice, 'ecdh' | 'authSecret'>): Buffer {
  const salt = body.subarray(0, 16);
  const idLength = body.readUInt8(20);
  const senderPublic = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  const receiverPublic = device.ecdh.getPublicKey();
  const shared = device.ecdh.computeSecret(senderPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), receiverPublic, senderPublic]);
  const ikm = Buffer.from(crypto.hkdfSync('sha256', shared, device.authSecret, keyInfo, 32));
  const cek = Buffer.from(crypto.hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(crypto.hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = crypto.createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02, then zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error('no last-record delimiter');
  return padded.subarray(0, end);
}

/** RFC 8292: `vapid t=<jwt>, k=<public key>`; the JWT signed by that key, for this origin, not expired. */
async function checkVapid(header: string | undefined, origin: string, verified: Set<string>): Promise<string | null> {
  // A push service checks a JWT it has seen once (a sender signs one per service and reuses it until it expires).
  if (header && verified.has(header)) return null;
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '');
  if (!match) return 'no VAPID authorization';
  const point = Buffer.from(match[2]!, 'base64url');
  if (point.length !== 65 || point[0] !== 4) return 'k is not an uncompressed P-256 point';
  try {
    const key = await importJWK({ kty: 'EC', crv: 'P-256', x: b64u(point.subarray(1, 33)), y: b64u(point.subarray(33)) }, 'ES256');
    const { payload } = await jwtVerify(match[1]!, key, { audience: origin, algorithms: ['ES256'] });
    if (typeof payload.exp !== 'number' || typeof payload.sub !== 'string') return 'exp and sub are required';
    verified.add(header!);
    return null;
  } catch (error) {
    return `bad VAPID JWT: ${(error as Error).message}`;
  }
}

export interface PushServiceStandIn {
  origin: string;
  received: ReceivedPush[];
  /** Requests refused (bad VAPID, undecryptable): a test expects none. */
  refused: string[];
  /** A new device whose endpoint is this stand-in. */
  device(): StandInDevice;
  /**
   * A device whose keys were made elsewhere (a browser page, with WebCrypto): its private key `d` and auth
   * secret, base64url. Its endpoint is `${origin}/push/${id}`.
   */
  adopt(id: string, keys: { d: string; auth: string }): StandInDevice;
  /** The device answers `status` from now on (404/410: gone; 500/429: try again later). */
  answer(deviceId: string, status: number): void;
  /**
   * From now on pushes are held unanswered (in flight for the sender) until `release()`; `hold(n)` answers
   * `n` more first. A push counts as received only once answered: one whose sender gave up meanwhile (it
   * closed the connection) is not, as a push service that never answered has not taken it.
   */
  hold(after?: number): void;
  /** Answers the held pushes and stops holding. */
  release(): void;
  /** Pushes held unanswered now. */
  readonly held: number;
  /** Called with every push received (the bench times arrivals). */
  onPush?: (push: ReceivedPush) => void;
  /**
   * With `acceptFirst`: decrypts the pushes accepted so far into `received` (each keeps its arrival time), or
   * refuses them (`refused`). Without it, a push is decrypted as it arrives and this does nothing.
   */
  settle(): void;
  close(): Promise<void>;
}

/**
 * `acceptFirst`: answer 201 once the VAPID header is checked, as a push service does (the device decrypts,
 * later and elsewhere), and decrypt at `settle()`: the bench's arrival times then do not include this
 * process decrypting 5,000 payloads on the cores the server and the live pages share.
 */
export async function startPushService(options: { acceptFirst?: boolean } = {}): Promise<PushServiceStandIn> {
  const devices = new Map<string, StandInDevice>();
  const accepted: Array<{ device: StandInDevice; body: Buffer; at: number; headers: http.IncomingHttpHeaders }> = [];
  const answers = new Map<string, number>();
  const verified = new Set<string>();
  let counter = 0;
  /** Pushes still to answer before holding (Infinity: not holding). */
  let answerFirst = Infinity;
  const heldPushes: Array<() => void> = [];
  const standIn: PushServiceStandIn = {
    origin: '',
    received: [],
    refused: [],
    device() {
      const id = `d${++counter}-${crypto.randomBytes(6).toString('hex')}`;
      const ecdh = crypto.createECDH('prime256v1');
      ecdh.generateKeys();
      const authSecret = crypto.randomBytes(16);
      const device = { id, ecdh, authSecret, subscription: { endpoint: `${standIn.origin}/push/${id}`, keys: { p256dh: b64u(ecdh.getPublicKey()), auth: b64u(authSecret) } } };
      devices.set(id, device);
      return device;
    },
    adopt(id, keys) {
      const ecdh = crypto.createECDH('prime256v1');
      ecdh.setPrivateKey(Buffer.from(keys.d, 'base64url'));
      const authSecret = Buffer.from(keys.auth, 'base64url');
      const device = { id, ecdh, authSecret, subscription: { endpoint: `${standIn.origin}/push/${id}`, keys: { p256dh: b64u(ecdh.getPublicKey()), auth: keys.auth } } };
      devices.set(id, device);
      return device;
    },
    answer(deviceId, status) {
      answers.set(deviceId, status);
    },
    hold(after = 0) {
      answerFirst = after;
    },
    release() {
      answerFirst = Infinity;
      for (const answer of heldPushes.splice(0)) answer();
    },
    get held() {
      return heldPushes.length;
    },
    settle() {
      for (const push of accepted.splice(0)) receive(push.device, push.body, push.at, push.headers);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void (async () => {
        const deviceId = /^\/push\/([\w-]+)$/.exec(request.url ?? '')?.[1];
        const device = deviceId ? devices.get(deviceId) : undefined;
        if (request.method !== 'POST' || !device) return response.writeHead(404).end();
        const status = answers.get(device.id);
        if (status) return response.writeHead(status).end();
        const problem = await checkVapid(request.headers.authorization, standIn.origin, verified);
        if (problem || request.headers['content-encoding'] !== 'aes128gcm') {
          standIn.refused.push(problem ?? 'not aes128gcm');
          return response.writeHead(problem ? 403 : 415).end();
        }
        if (answerFirst <= 0) {
          await new Promise<void>((resolve) => heldPushes.push(resolve));
          if (request.socket.destroyed) return;
        } else answerFirst--;
        if (options.acceptFirst) {
          accepted.push({ device, body: Buffer.concat(chunks), at: Date.now(), headers: request.headers });
          return response.writeHead(201).end();
        }
        response.writeHead(receive(device, Buffer.concat(chunks), Date.now(), request.headers) ? 201 : 400).end();
      })();
    });
  });
  /** Decrypts and records one push: false when it cannot be decrypted (refused). */
  function receive(device: StandInDevice, body: Buffer, at: number, headers: http.IncomingHttpHeaders): boolean {
    let text: string;
    try {
      text = decryptAes128gcm(body, device).toString('utf8');
    } catch (error) {
      standIn.refused.push(`undecryptable: ${(error as Error).message}`);
      return false;
    }
    let payload: unknown = text;
    try {
      payload = JSON.parse(text);
    } catch {
      // Not JSON: kept as text.
    }
    const push: ReceivedPush = {
      deviceId: device.id,
      payload,
      text,
      at,
      ttl: headers.ttl as string | undefined,
      topic: headers.topic as string | undefined,
      urgency: headers.urgency as string | undefined,
    };
    standIn.received.push(push);
    standIn.onPush?.(push);
    return true;
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  standIn.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return standIn;
}
