// An npm registry of one package on 127.0.0.1, for `npm install <name>` without the internet: the
// packument at /<name> and its tarball, made with `npm pack` from a package of a few lines. It keeps the
// requests it answered, so a test can tell a download from an install out of npm's cache. The package
// exports a value of the caller's: a tarball of its own, which no npm cache holds yet.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { tempDir } from '../../helpers/project.js';

export interface LocalRegistry {
  /** `http://127.0.0.1:<port>/` */
  url: string;
  name: string;
  version: string;
  /** Requests answered, by path. */
  requests: string[];
  close(): Promise<void>;
}

/** Serves one package, `name@version`, whose main module exports the string `exported`. */
export async function localRegistry(exported: string, name = 'isdlc-e2e-tiny', version = '1.0.0'): Promise<LocalRegistry> {
  const source = tempDir('isdlc-registry-');
  writeFileSync(join(source, 'package.json'), JSON.stringify({ name, version, main: 'index.js' }));
  writeFileSync(join(source, 'index.js'), `module.exports = ${JSON.stringify(exported)};\n`);
  // npm pack prints the tarball's name last; it runs no network and no scripts here.
  const file = execFileSync('npm', ['pack', '--silent', '--ignore-scripts'], { cwd: source, encoding: 'utf8' }).trim().split('\n').pop()!;
  const tarball = readFileSync(join(source, file));
  const requests: string[] = [];
  let url = '';
  const server: Server = createServer((request, response) => {
    const path = decodeURIComponent((request.url ?? '/').split('?')[0]!);
    requests.push(path);
    if (path === `/${name}`) {
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify({
          name,
          'dist-tags': { latest: version },
          versions: {
            [version]: {
              name,
              version,
              main: 'index.js',
              dist: {
                tarball: `${url}${name}/-/${file}`,
                shasum: createHash('sha1').update(tarball).digest('hex'),
                integrity: `sha512-${createHash('sha512').update(tarball).digest('base64')}`,
              },
            },
          },
        }),
      );
    } else if (path === `/${name}/-/${file}`) {
      response.setHeader('content-type', 'application/octet-stream');
      response.end(tarball);
    } else {
      response.statusCode = 404;
      response.end('{}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return { url, name, version, requests, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
