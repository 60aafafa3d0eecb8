/**
 * Adds package-lock.json entries for platform-specific optional packages that the registry
 * in use did not serve (it answered 404, so `npm install` left them out). Without these
 * entries `npm ci` refuses the lockfile as out of sync. Each entry carries the platform
 * fields read from the package name, so npm skips it on every other platform as usual.
 *
 * Usage: node scripts/complete-lockfile.mjs [folder]   (after `npm install` changes the lockfile)
 * The folder holding package-lock.json defaults to the current one, e.g.
 * `node scripts/complete-lockfile.mjs test/runtimes` for the runtimes' own project.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const OS = [
  'android',
  'darwin',
  'freebsd',
  'linux',
  'openbsd',
  'openharmony',
  'win32',
  'sunos',
  'aix',
  'netbsd',
];
// Some packages spell these their own way (bun: `aarch64`, `windows`).
const ALIASES = { aarch64: 'arm64', windows: 'win32' };
const CPU = ['arm64', 'x64', 'ia32', 'arm', 'loong64', 'ppc64', 'riscv64', 's390x', 'mips64el'];

function platformOf(name) {
  const parts = name
    .split('/')
    .pop()
    .split('-')
    .map((part) => ALIASES[part] ?? part);
  // `linux-x64-android` builds run on Android, not on Linux.
  const os = parts.includes('android') ? 'android' : parts.find((part) => OS.includes(part));
  const cpu = parts.find((part) => CPU.includes(part)) ?? (parts.includes('arm') ? 'arm' : undefined);
  if (!os || !cpu) return undefined;
  const libc =
    parts.includes('musl') || parts.includes('musleabihf') ? 'musl' : os === 'linux' ? 'glibc' : undefined;
  return { os: [os], cpu: [cpu], ...(libc ? { libc: [libc] } : {}) };
}

const lockfile = join(process.argv[2] ?? '.', 'package-lock.json');
const lock = JSON.parse(readFileSync(lockfile, 'utf8'));
let added = 0;
for (const [path, entry] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const key = `node_modules/${name}`;
    const nested = `${path}/node_modules/${name}`;
    if (lock.packages[key] || lock.packages[nested]) continue;
    const platform = platformOf(name);
    if (!platform) continue;
    lock.packages[key] = { version, ...(entry.dev ? { dev: true } : {}), optional: true, ...platform };
    added += 1;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
writeFileSync(lockfile, `${JSON.stringify(lock, null, 2)}\n`);
process.stdout.write(`added ${added} platform entries\n`);
