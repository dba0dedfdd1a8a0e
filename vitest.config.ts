import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { storybookTest } from '@storybook/addon-vitest/vitest-plugin'
import react from '@vitejs/plugin-react'
import { playwright } from '@vitest/browser-playwright'
import { REVISION } from 'three'
import { defineConfig } from 'vitest/config'
import { WEBGPU_MIN_REVISION } from './src/three/webgpu/minRevision.ts'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './test/browser/chromium.mjs'

const root = fileURLToPath(new URL('.', import.meta.url))

/**
 * CI runs the tests on the oldest three.js the main entry claims too (scripts/test-three-version.sh), which has
 * no `three/webgpu` or `three/tsl`. There both resolve to a stub that throws when used, the tests needing them
 * are skipped (test/support/webgpu-three.ts; the left-out reporter lists them) and the WebGPURenderer story
 * project is left out: the WebGL tests and stories run as ever.
 */
const WEBGPU_THREE = Number.parseInt(REVISION, 10) >= WEBGPU_MIN_REVISION
const resolve: { alias?: { find: RegExp; replacement: string }[] } = WEBGPU_THREE
  ? {}
  : { alias: [{ find: /^three\/(webgpu|tsl)$/, replacement: `${root}test/support/three-webgpu-stub.ts` }] }
const PACKAGE_ALIASES = [
  { find: /^react-three-md2$/, replacement: `${root}src/index.ts` },
  { find: /^react-three-md2\/(core|three)$/, replacement: `${root}src/$1/index.ts` },
  { find: /^react-three-md2\/rapier$/, replacement: `${root}src/react/rapier/index.ts` },
]

// Debian's Chromium (npm cannot download a browser here); test/browser/require-chromium.ts checks
// the same path as a globalSetup of the browser projects.
const CHROMIUM_MISSING =
  `Chromium not found at ${CHROMIUM_PATH}. The browser tests drive Debian's Chromium: ` +
  'install it with `apt-get install -y chromium` (or point CHROMIUM_PATH at a Chromium binary).'

/** Is a browser project part of this run? (`vitest run --project unit` must not need Chromium.) */
function runsBrowserProjects(): boolean {
  const argv = process.argv
  const selected: string[] = []
  argv.forEach((arg, i) => {
    if (arg === '--project' && argv[i + 1]) selected.push(argv[i + 1]!)
    else if (arg.startsWith('--project=')) selected.push(arg.slice('--project='.length))
  })
  return selected.length === 0 || selected.some((name) => !/^unit$/.test(name))
}

/**
 * Browser options for one project: Debian's Chromium, headless, WebGL through ANGLE on SwiftShader
 * and WebGPU on SwiftShader (no GPU here). A fresh object per project: vitest mutates `instances`.
 */
function chromium() {
  if (!existsSync(CHROMIUM_PATH) && runsBrowserProjects()) throw new Error(CHROMIUM_MISSING)
  return {
    enabled: true,
    headless: true,
    provider: playwright({
      launchOptions: {
        executablePath: CHROMIUM_PATH,
        args: [...CHROMIUM_ARGS],
      },
    }),
    instances: [{ browser: 'chromium' as const }],
    screenshotFailures: false,
  }
}

/** The story tests, drawn by one of three.js's renderers. */
function storybookProject(name: string, renderer: 'webgl' | 'webgpu') {
  return {
    plugins: [
      storybookTest({
        configDir: `${root}.storybook`,
        // A 640×480 viewport (defined in .storybook/preview.tsx): SwiftShader draws it quickly.
        initialGlobals: { viewport: { value: 'pixelTests', isRotated: false }, renderer },
      }),
    ],
    resolve,
    test: {
      name,
      globalSetup: ['test/browser/require-chromium.ts'],
      setupFiles: ['test/browser/story-guards.ts'],
      browser: chromium(),
      fileParallelism: false,
      testTimeout: 180_000,
      hookTimeout: 120_000,
    },
  }
}

export default defineConfig({
  test: {
    // The second reporter prints how many stories were checked in Chromium (silent otherwise), the third
    // which tests were left out for want of three's WebGPU side (silent on a three that has it).
    reporters: ['default', './test/browser/story-count-reporter.ts', './test/support/left-out-reporter.ts'],
    projects: [
      {
        resolve,
        test: {
          name: 'unit',
          environment: 'node',
          include: ['test/**/*.test.{ts,tsx}'],
          exclude: ['test/browser/**'],
          setupFiles: ['test/setup.ts'],
          // Beyond SETTLE_LIMIT_MS (test/support/alloc.ts): the allocation tests may wait that long for V8's optimizer.
          testTimeout: 150_000,
        },
      },
      {
        // Plain browser tests: <Canvas> + <MD2Model> mounted with react-dom in real Chromium.
        plugins: [react()],
        // The docs' samples import the package by name: here, its source.
        resolve: { alias: [...(resolve.alias ?? []), ...PACKAGE_ALIASES] },
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.{ts,tsx}'],
          globalSetup: ['test/browser/require-chromium.ts'],
          browser: { ...chromium(), viewport: { width: 800, height: 600 } },
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      // Every story is a test: its play function checks the pixels (see stories/support/pixels.ts); once
      // with WebGLRenderer and once with WebGPURenderer on real WebGPU (the toolbar's `renderer` global).
      storybookProject('storybook', 'webgl'),
      ...(WEBGPU_THREE ? [storybookProject('storybook-webgpu', 'webgpu')] : []),
    ],
  },
})
