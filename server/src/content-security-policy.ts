import type { Config } from './config.js';

/** One directive → its sources, in the order they are sent. */
export type CspDirectives = Record<string, string[]>;

// Clerk's published CSP requirements (docs/decisions.md, "Security: content security policy").
const CLERK_IMAGES = 'https://img.clerk.com';
const CLOUDFLARE_CHALLENGES = 'https://challenges.cloudflare.com';

/**
 * The frontend API host a Clerk publishable key names: `pk_test_` / `pk_live_` followed by the base64 of
 * `<host>$`. Null for anything else, so a malformed key adds no source to the policy.
 */
export function clerkFrontendApiHost(publishableKey: string | undefined): string | null {
  const match = /^pk_(test|live)_([A-Za-z0-9+/=_-]+)$/.exec(publishableKey ?? '');
  if (!match?.[2]) return null;
  const decoded = Buffer.from(match[2], 'base64').toString('utf8');
  if (!decoded.endsWith('$')) return null;
  const host = decoded.slice(0, -1);
  // A host name (optionally with a port), nothing that could smuggle another source or directive in.
  return /^[a-z0-9]([a-z0-9.-]*[a-z0-9])?(:\d{1,5})?$/i.test(host) ? host.toLowerCase() : null;
}

/**
 * The policy every response carries. The SPA loads only its own bundle (Vite emits no inline script)
 * and talks only to its own origin; styles allow 'unsafe-inline' because Chakra UI (Emotion) writes its
 * CSS into <style> elements at run time. Clerk's frontend API is allowed only when Clerk signs users in.
 */
export function contentSecurityPolicy(config: Pick<Config, 'authProvider' | 'CLERK_PUBLISHABLE_KEY'>): CspDirectives {
  const clerkHost = config.authProvider === 'clerk' ? clerkFrontendApiHost(config.CLERK_PUBLISHABLE_KEY) : null;
  const clerk = clerkHost ? `https://${clerkHost}` : null;
  const directives: CspDirectives = {
    'default-src': ["'self'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
    'object-src': ["'none'"],
    'script-src': ["'self'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'"],
    'connect-src': ["'self'"],
  };
  if (clerk) {
    directives['script-src']!.push(clerk, CLOUDFLARE_CHALLENGES);
    directives['connect-src']!.push(clerk);
    directives['img-src']!.push(CLERK_IMAGES);
    directives['worker-src'] = ["'self'", 'blob:'];
    directives['frame-src'] = [CLOUDFLARE_CHALLENGES];
  }
  return directives;
}
