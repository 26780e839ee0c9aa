import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from '../../config.js';

export interface SigningKeys {
  privateKey: crypto.KeyObject;
  publicKeyPem: string;
  /** Key id placed in JWT headers, derived from the public key. */
  kid: string;
  /** Secret for hashing one-time codes and session secrets (HMAC), derived from the private key. */
  hmacSecret: Buffer;
}

function fromPrivatePem(pem: string, source: string): SigningKeys {
  let privateKey: crypto.KeyObject;
  try {
    privateKey = crypto.createPrivateKey(pem);
  } catch {
    // Named, never printed: the value is the key that signs every session.
    throw new ConfigError(`Invalid configuration: ${source}: not a readable PEM private key`);
  }
  if (privateKey.asymmetricKeyType !== 'rsa') throw new ConfigError(`Invalid configuration: ${source}: must be an RSA private key (tokens are signed with RS256)`);
  const publicKeyPem = crypto.createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString();
  const kid = `ins_${crypto.createHash('sha256').update(publicKeyPem).digest('hex').slice(0, 16)}`;
  const der = privateKey.export({ type: 'pkcs8', format: 'der' });
  const hmacSecret = Buffer.from(crypto.hkdfSync('sha256', der, Buffer.alloc(0), 'first-round idp hmac', 32));
  return { privateKey, publicKeyPem, kid, hmacSecret };
}

/**
 * The local identity provider's RS256 key pair: from LOCAL_IDP_PRIVATE_KEY, else a PEM file under DATA_DIR
 * created on first start (mode 0600) and reused afterwards, so sessions survive restarts.
 */
export async function loadSigningKeys(options: { privateKeyPem?: string; dataDir: string }): Promise<SigningKeys> {
  if (options.privateKeyPem) return fromPrivatePem(options.privateKeyPem, 'LOCAL_IDP_PRIVATE_KEY');
  const file = path.join(options.dataDir, 'idp-private-key.pem');
  const existing = await fs.readFile(file, 'utf8').catch(() => undefined);
  if (existing) return fromPrivatePem(existing, file);
  const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  await fs.mkdir(options.dataDir, { recursive: true });
  try {
    await fs.writeFile(file, pem, { mode: 0o600, flag: 'wx' });
    return fromPrivatePem(pem, file);
  } catch {
    // Another process created it first: use theirs.
    return fromPrivatePem(await fs.readFile(file, 'utf8'), file);
  }
}

export function hmac(secret: Buffer, value: string): string {
  return crypto.createHmac('sha256', secret).update(value).digest('hex');
}
