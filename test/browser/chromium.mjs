/**
 * Debian's Chromium and the flags every browser run here uses (vitest's browser projects, the static
 * Storybook check, the benchmarks, examples/arena's test): npm cannot download a browser, and there is
 * no GPU. Plain JavaScript, so that a Node script without a TypeScript loader can import it too.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/** @type {readonly string[]} */
export const CHROMIUM_ARGS = [
  // WebGL through ANGLE on SwiftShader.
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
  // A real WebGPU adapter (SwiftShader's Vulkan) for WebGPURenderer, on a page from localhost or
  // 127.0.0.1 (a secure context, so navigator.gpu exists).
  '--enable-unsafe-webgpu',
  '--use-webgpu-adapter=swiftshader',
  // Without Vulkan on SwiftShader for the GPU process, the WebGPU device is lost as soon as it is made
  // ("A valid external Instance reference no longer exists") and nothing is drawn.
  '--enable-features=Vulkan',
  '--use-vulkan=swiftshader',
  '--ignore-gpu-blocklist',
  '--no-sandbox',
  '--disable-dev-shm-usage',
  // Keep rAF and timers running at full speed in a hidden headless page.
  '--disable-background-timer-throttling',
  '--disable-renderer-backgrounding',
  '--disable-backgrounding-occluded-windows',
]
