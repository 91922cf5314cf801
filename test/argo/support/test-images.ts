// The suite's own images, as the pod runner finds them (tools/argo-stack/src/images.ts): a test image
// `executor-plugins.test/<name>` runs dist/test/<name>/main.js, which the global setup bundles from
// test/argo/support/<name>/main.ts.
export function testImage(name: 'scripted-plugin' | 'mini-plugin'): string {
  return `executor-plugins.test/${name}:dev`;
}
