// The shell of every page the tool writes: one self-contained HTML document that loads nothing. The
// Content-Security-Policy allows no source at all except the page's own style and script, each named by
// its sha256, so an injected `<script>` or `style=` would not run even if escaping ever failed.
import { createHash } from 'node:crypto';
import { esc } from './escape.js';
import { SCRIPT } from './script.js';
import { STYLE } from './style.js';

const hash = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The policy for the page's own style and script: nothing else, no network, no forms, no frames. */
export function contentSecurityPolicy(style: string, script: string): string {
  return ["default-src 'none'", `style-src ${hash(style)}`, `script-src ${hash(script)}`, "img-src 'none'", "base-uri 'none'", "form-action 'none'"].join('; ');
}

/** The whole document around body parts already escaped by the caller. */
export function page(title: string, body: readonly string[]): string {
  return [
    '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n',
    `<meta http-equiv="Content-Security-Policy" content="${esc(contentSecurityPolicy(STYLE, SCRIPT))}">\n`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">\n<meta name="referrer" content="no-referrer">\n',
    `<title>${esc(title)}</title>\n<style>${STYLE}</style>\n</head>\n<body>\n`,
    ...body,
    `\n<script>${SCRIPT}</script>\n</body>\n</html>\n`,
  ].join('');
}
