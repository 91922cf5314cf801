import { MOUNT_STAGE, mountScript } from './mount-script.js';

describe('mountScript', () => {
  const pod = '/tmp/argo-suite-x/stack/pods/ns_p_1234abcd/volumes';

  it("binds every source before any target is mounted: Argo's wait container mounts /tmp over its own sources", () => {
    const lines = mountScript(
      [
        { source: `${pod}/tmp-dir-argo/0`, target: '/tmp' },
        { source: `${pod}/var-run-argo`, target: '/var/run/argo' },
        { source: `${pod}/token`, target: '/var/run/secrets/kubernetes.io/serviceaccount', readOnly: true },
      ],
      () => true,
    );
    const firstTarget = lines.findIndex((l) => l.startsWith(`mount --bind ${MOUNT_STAGE}/`));
    const lastSource = lines.findLastIndex((l) => l.startsWith(`mount --bind '${pod}`));
    expect(lastSource).toBeLessThan(firstTarget);
    expect(lines).toEqual([
      `mount -t tmpfs -o size=64k,mode=0700 argo-stack-stage ${MOUNT_STAGE}`,
      `mkdir -p '${MOUNT_STAGE}/0'`,
      `mount --bind '${pod}/tmp-dir-argo/0' ${MOUNT_STAGE}/0`,
      `mkdir -p '${MOUNT_STAGE}/1'`,
      `mount --bind '${pod}/var-run-argo' ${MOUNT_STAGE}/1`,
      `mkdir -p '${MOUNT_STAGE}/2'`,
      `mount --bind '${pod}/token' ${MOUNT_STAGE}/2`,
      `mkdir -p '/tmp'`,
      `mount --bind ${MOUNT_STAGE}/0 '/tmp'`,
      `mkdir -p '/var/run/argo'`,
      `mount --bind ${MOUNT_STAGE}/1 '/var/run/argo'`,
      `mkdir -p '/var/run/secrets/kubernetes.io/serviceaccount'`,
      `mount --bind ${MOUNT_STAGE}/2 '/var/run/secrets/kubernetes.io/serviceaccount'`,
      `mount -o remount,bind,ro '/var/run/secrets/kubernetes.io/serviceaccount'`,
      `umount -l ${MOUNT_STAGE}`,
    ]);
  });

  it('mounts parents before their children whatever the spec order, and a file onto a file', () => {
    const lines = mountScript(
      [
        { source: '/s/conf/app.yaml', target: '/etc/app/app.yaml' },
        { source: '/s/etc', target: '/etc/app' },
      ],
      (p) => !p.endsWith('.yaml'),
    );
    const targets = lines.filter((l) => l.startsWith(`mount --bind ${MOUNT_STAGE}`));
    expect(targets).toEqual([
      `mount --bind ${MOUNT_STAGE}/0 '/etc/app'`,
      `mount --bind ${MOUNT_STAGE}/1 '/etc/app/app.yaml'`,
    ]);
    expect(lines).toContain(`touch '${MOUNT_STAGE}/1'`);
    expect(lines).toContain(`touch '/etc/app/app.yaml'`);
  });

  it('nothing to mount: no stage either', () => {
    expect(mountScript([])).toEqual([]);
  });
});
