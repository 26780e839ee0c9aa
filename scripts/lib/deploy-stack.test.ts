// The bench's plain-HTTP listener (startNginx's plainPort) is deploy/nginx.conf's own TLS server, made plain:
// the same proxy settings, no certificate, and nothing of the other servers.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NGINX_TEMPLATE, plainServerOf } from './deploy-stack';

const template = fs.readFileSync(NGINX_TEMPLATE, 'utf8');

describe('plainServerOf', () => {
  it('copies the TLS server with a plain listen line and no ssl_ directives', () => {
    const plain = plainServerOf(template, '{{HTTPS_PORT}}', 8080);
    expect(plain.startsWith('server {')).toBe(true);
    expect(plain.trimEnd().endsWith('}')).toBe(true);
    expect(plain).toContain('    listen 127.0.0.1:8080;\n    keepalive_timeout 5s;');
    expect(plain).not.toMatch(/\bssl/);
    expect(plain).not.toContain('#');
    expect(plain).not.toContain('return 301');
    expect(plain).not.toContain('return 444');
    // Every proxy directive of the template's TLS server is there, in the same words.
    const directives = template.match(/^\s*proxy_\w+[^;]*;/gm)!.map((d) => d.trim());
    expect(directives.length).toBeGreaterThan(10);
    for (const directive of directives) expect(plain).toContain(directive);
    // The TLS server's locations, each once: the live stream's, the two saves nginx may resend, the rest.
    expect(plain.match(/^\s*location [^{]*/gm)!.map((l) => l.trim())).toEqual(['location = /trpc/draft.changes', 'location = /api/picks/', 'location = /trpc/picks.save', 'location /']);
  });

  it('adds reuseport when nginx has several workers', () => {
    expect(plainServerOf(template, '{{HTTPS_PORT}}', 8080, true)).toContain('listen 127.0.0.1:8080 reuseport;');
  });

  it('refuses a template without that TLS server', () => {
    expect(() => plainServerOf(template, '9999', 8080)).toThrow(/no "listen 9999 ssl http2;"/);
  });
});
