// An OCI image archive (image layout, one uncompressed layer) from a root filesystem folder, as
// `ctr images import` reads it: reproducible (sorted entries, owner root, mtime 0), named by the
// `io.containerd.image.name` annotation.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ImageConfig {
  Env?: string[];
  Entrypoint?: string[];
  Cmd?: string[];
  User?: string;
  WorkingDir?: string;
  Labels?: Record<string, string>;
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** Writes `<out>` (a tar of the OCI layout) holding `rootfs` as the image `ref` (e.g. docker.io/library/alpine:3.20). */
export function writeOciArchive(rootfs: string, ref: string, config: ImageConfig, out: string): void {
  const work = `${out}.d`;
  rmSync(work, { recursive: true, force: true });
  const blobs = join(work, 'blobs/sha256');
  mkdirSync(blobs, { recursive: true });
  const layerTmp = join(work, 'layer.tar');
  execFileSync('tar', [
    '--sort=name',
    '--mtime=@0',
    '--owner=0',
    '--group=0',
    '--numeric-owner',
    '-C',
    rootfs,
    '-cf',
    layerTmp,
    '.',
  ]);
  const layer = sha256(readFileSync(layerTmp));
  const layerSize = statSync(layerTmp).size;
  renameSync(layerTmp, join(blobs, layer));
  const blob = (json: unknown) => {
    const data = Buffer.from(JSON.stringify(json));
    const digest = sha256(data);
    writeFileSync(join(blobs, digest), data);
    return { digest: `sha256:${digest}`, size: data.length };
  };
  const configBlob = blob({
    architecture: 'amd64',
    os: 'linux',
    config,
    rootfs: { type: 'layers', diff_ids: [`sha256:${layer}`] },
  });
  const manifest = blob({
    schemaVersion: 2,
    mediaType: 'application/vnd.oci.image.manifest.v1+json',
    config: { mediaType: 'application/vnd.oci.image.config.v1+json', ...configBlob },
    layers: [
      { mediaType: 'application/vnd.oci.image.layer.v1.tar', digest: `sha256:${layer}`, size: layerSize },
    ],
  });
  writeFileSync(
    join(work, 'index.json'),
    JSON.stringify({
      schemaVersion: 2,
      manifests: [
        {
          mediaType: 'application/vnd.oci.image.manifest.v1+json',
          ...manifest,
          annotations: {
            'io.containerd.image.name': ref,
            'org.opencontainers.image.ref.name': ref.slice(ref.lastIndexOf(':') + 1),
          },
        },
      ],
    }),
  );
  writeFileSync(join(work, 'oci-layout'), JSON.stringify({ imageLayoutVersion: '1.0.0' }));
  execFileSync('tar', ['--sort=name', '--mtime=@0', '-C', work, '-cf', `${out}.tmp`, '.']);
  renameSync(`${out}.tmp`, out);
  rmSync(work, { recursive: true, force: true });
}
