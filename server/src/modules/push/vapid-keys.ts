import fs from 'node:fs/promises';
import path from 'node:path';
import webPush from 'web-push';

/** The server's VAPID key pair (RFC 8292), base64url as web-push and `PushManager.subscribe` take it. */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/**
 * VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY when both are set; otherwise a pair generated on first start into
 * the data directory (mode 0600) and reused afterwards, like the sign-in key: a new pair would orphan every
 * device's subscription, which is bound to the public key it was made with.
 */
export async function loadVapidKeys(options: { publicKey?: string; privateKey?: string; dataDir: string }): Promise<VapidKeys> {
  if (options.publicKey && options.privateKey) return { publicKey: options.publicKey, privateKey: options.privateKey };
  const file = path.join(options.dataDir, 'vapid-keys.json');
  const read = async () => JSON.parse(await fs.readFile(file, 'utf8')) as VapidKeys;
  const existing = await read().catch(() => undefined);
  if (existing) return existing;
  await fs.mkdir(options.dataDir, { recursive: true });
  try {
    await fs.writeFile(file, JSON.stringify(webPush.generateVAPIDKeys()), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // Another instance on the same directory wrote it first: use theirs.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return read();
}
