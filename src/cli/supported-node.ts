// The oldest Node the tool runs on: package.json's `engines` floor (test/unit/supported-node.test.ts
// keeps the two equal). Both entry points (bin/upload.js, cli/exe.ts) ask this module first and load the
// program only on a supported Node: on an older one the dependencies fail in ways that tell the user
// nothing (Node 20: a TypeError inside undici in the middle of an upload, with a write-ahead intent
// left behind). This file imports nothing and keeps to syntax old Nodes parse, so the refusal itself
// cannot be what fails.

export const NODE_FLOOR = '22.19';

/** Whether version `found` (`process.versions.node`, "20.20.2") is at least `floor` ("22.19"). */
export function supports(found: string, floor: string = NODE_FLOOR): boolean {
  const have = found.split('.').map(Number);
  const need = floor.split('.').map(Number);
  for (let i = 0; i < need.length; i++) {
    const h = have[i] || 0;
    const n = need[i] || 0;
    if (h !== n) return h > n;
  }
  return true;
}

/** The one line a run on an unsupported Node ends with (exit 2); undefined on a supported one. */
export function unsupportedNode(found: string, execPath: string): string | undefined {
  if (supports(found)) return undefined;
  return `upload: needs Node.js ${NODE_FLOOR} or later, and ${execPath} is Node.js ${found}; run it with a newer node, or use the single executable (docs/install.md)`;
}
