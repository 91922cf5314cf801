// The conformance kit's mini plugin (tools/conformance/test/fixtures) as a sidecar image
// (executor-plugins.test/mini-plugin, bundled into dist/test/mini-plugin/main.js by the suite's setup), for the
// kit's --agent real mode: a pod of the real node sees only its image, not this machine's files.
import '../../../../tools/conformance/test/fixtures/mini-main.js';
