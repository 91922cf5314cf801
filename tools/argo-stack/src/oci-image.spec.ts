import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeOciArchive } from './oci-image.js';

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

describe('an OCI image archive from a root filesystem', () => {
  const work = mkdtempSync(join(tmpdir(), 'oci-image-'));
  const rootfs = join(work, 'rootfs');
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  beforeAll(() => {
    mkdirSync(join(rootfs, 'bin'), { recursive: true });
    writeFileSync(join(rootfs, 'bin/hello'), '#!/bin/sh\necho hello\n', { mode: 0o755 });
  });

  const unpack = (archive: string) => {
    const dir = mkdtempSync(join(work, 'unpacked-'));
    execFileSync('tar', ['-xf', archive, '-C', dir]);
    const blob = (digest: string) => readFileSync(join(dir, 'blobs/sha256', digest.replace('sha256:', '')));
    const index = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8'));
    const manifest = JSON.parse(blob(index.manifests[0].digest).toString());
    const config = JSON.parse(blob(manifest.config.digest).toString());
    return { dir, blob, index, manifest, config };
  };

  it('names the image as ctr imports it and links index, manifest, config and layer by their digests', () => {
    const archive = join(work, 'a.tar');
    writeOciArchive(rootfs, 'docker.io/library/alpine:3.20', { Cmd: ['/bin/hello'] }, archive);
    const { dir, blob, index, manifest, config } = unpack(archive);
    expect(JSON.parse(readFileSync(join(dir, 'oci-layout'), 'utf8'))).toEqual({
      imageLayoutVersion: '1.0.0',
    });
    expect(index.manifests[0].annotations).toEqual({
      'io.containerd.image.name': 'docker.io/library/alpine:3.20',
      'org.opencontainers.image.ref.name': '3.20',
    });
    for (const ref of [index.manifests[0], manifest.config, ...manifest.layers]) {
      const data = blob(ref.digest);
      expect(`sha256:${sha256(data)}`).toBe(ref.digest);
      expect(data.length).toBe(ref.size);
    }
    // An uncompressed layer: its diff_id is its own digest.
    expect(config.rootfs.diff_ids).toEqual([manifest.layers[0].digest]);
    expect(config.config).toEqual({ Cmd: ['/bin/hello'] });
    const listing = execFileSync(
      'tar',
      ['-tvf', join(dir, 'blobs/sha256', manifest.layers[0].digest.slice(7))],
      {
        encoding: 'utf8',
      },
    );
    expect(listing).toMatch(/^-rwxr-xr-x 0\/0 .* \.\/bin\/hello$/m);
  });

  it('is the same bytes when built again from the same files, whatever their times', () => {
    const first = join(work, 'first.tar');
    const second = join(work, 'second.tar');
    writeOciArchive(rootfs, 'example.test/same:1', {}, first);
    utimesSync(join(rootfs, 'bin/hello'), new Date(2020, 1, 1), new Date(2020, 1, 1));
    writeOciArchive(rootfs, 'example.test/same:1', {}, second);
    expect(sha256(readFileSync(second))).toBe(sha256(readFileSync(first)));
  });
});
