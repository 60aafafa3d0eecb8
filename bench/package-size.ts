import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { posix } from 'node:path';

/** What `npm pack` would publish: the tarball's size and what the package's source maps point at. */
export interface PackageSize {
  /** Bytes of the gzipped tarball, as `npm pack` reports them. */
  readonly packedBytes: number;
  /** Bytes of the files once unpacked. */
  readonly unpackedBytes: number;
  /** Sources named by a shipped `.map` that the package does not ship (a map that points nowhere). */
  readonly missingMapSources: readonly string[];
}

/**
 * Measures the package `npm pack --dry-run` would publish from `root` (which ends with `/`). It
 * packs `dist/` as it is, so it refuses to measure before a build: an empty `dist/` would pass.
 */
export function packageSize(root: string): PackageSize {
  if (!existsSync(`${root}dist/index.js`)) throw new Error('dist/ is missing: run npm run build first');
  const json = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const [report] = JSON.parse(json) as { size: number; unpackedSize: number; files: { path: string }[] }[];
  if (report === undefined) throw new Error('npm pack reported no package');
  const shipped = new Set(report.files.map((file) => file.path));
  const missingMapSources = [...shipped]
    .filter((path) => path.endsWith('.map'))
    .flatMap((map) => {
      const { sources = [] } = JSON.parse(readFileSync(`${root}${map}`, 'utf8')) as { sources?: string[] };
      return sources
        .map((source) => posix.normalize(posix.join(posix.dirname(map), source)))
        .filter((source) => !shipped.has(source));
    });
  return { packedBytes: report.size, unpackedBytes: report.unpackedSize, missingMapSources };
}
