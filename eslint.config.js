// ESLint: typescript-eslint's strict rules and React's hooks rules over the library, tests, stories,
// benchmarks and scripts. Formatting is Prettier's (npm run format), checked by npm run lint.
import js from '@eslint/js'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

/** three.js's WebGPU side is bundled only by apps that import react-three-md2/webgpu (src/three/webgpu). */
const WEBGPU_ONLY = {
  group: ['three/webgpu', 'three/tsl'],
  message:
    'three/webgpu and three/tsl are imported in src/three/webgpu only (the react-three-md2/webgpu entry): a WebGL app must not bundle them.',
}

/** @react-three/rapier, an optional peer, is bundled only by apps that import react-three-md2/rapier (src/react/rapier). */
const RAPIER_ONLY = {
  group: ['@react-three/rapier', '@dimforge/*'],
  message:
    '@react-three/rapier is imported in src/react/rapier only (the react-three-md2/rapier entry): an app without physics must not need it.',
}

const REACT = ['react', 'react/*', 'react-dom', 'react-dom/*', '@react-three/*']

/** What the three.js layer may not import, the WebGPU entry included. */
const THREE_LAYER = [
  { group: REACT, message: 'src/three knows nothing of React.' },
  { group: ['**/react/**', '**/cli/**'], message: 'src/three imports from src/core and src/three only.' },
]

/** A layer's rule: `files` (but `ignores`) may not import what `patterns` name. */
function restrictImports(files, patterns, ignores) {
  return { files, ...(ignores && { ignores }), rules: { 'no-restricted-imports': ['error', { patterns }] } }
}

export default tseslint.config(
  {
    ignores: [
      'dist',
      'storybook-static',
      'coverage',
      'node_modules',
      'bench/results',
      '**/*.d.ts.map',
      // The examples' build output, packed library and copied models (examples/arena/README.md).
      'examples/*/dist',
      'examples/*/vendor',
      'examples/*/node_modules',
      'examples/*/public/players',
      'examples/*/dist-three',
      'examples/*/public/models',
      'examples/*/public/textures',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // The hot loops index typed arrays whose bounds are checked by construction.
      '@typescript-eslint/no-non-null-assertion': 'off',
      // Three.js objects are mutated by design (a ref's mesh, a shared frustum); the compiler-era
      // rules about mutation and refs read during render do not fit a render loop.
      'react-hooks/immutability': 'off',
      'react-hooks/refs': 'off',
      'react-hooks/purity': 'off',
      'react-hooks/set-state-in-effect': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // Layers: bytes → core → three → react. The core runs anywhere (no three.js, React or Node);
  // the three.js layer knows nothing of React.
  restrictImports(
    ['src/core/**/*.ts'],
    [
      { group: ['three', 'three/*', ...REACT], message: 'src/core is plain TypeScript: no three.js or React.' },
      { group: ['node:*'], message: 'src/core runs in browsers and workers too: no Node modules.' },
      { group: ['**/three/**', '**/react/**', '**/cli/**'], message: 'src/core imports only from src/core.' },
    ],
  ),
  restrictImports(
    ['src/three/**/*.ts'],
    [
      ...THREE_LAYER,
      { group: ['**/webgpu/**'], message: 'Only the react-three-md2/webgpu entry imports src/three/webgpu: reach it through a seam.' },
      WEBGPU_ONLY,
    ],
    ['src/three/webgpu/**'],
  ),
  // The WebGPU entry: three.js's WebGPU side, never React.
  restrictImports(['src/three/webgpu/**/*.ts'], THREE_LAYER),
  restrictImports(
    ['src/react/**/*.{ts,tsx}', 'src/cli/**/*.ts', 'src/*.ts'],
    [
      { group: ['**/three/webgpu/**'], message: WEBGPU_ONLY.message },
      WEBGPU_ONLY,
      RAPIER_ONLY,
      { group: ['**/rapier/**'], message: RAPIER_ONLY.message },
    ],
    ['src/react/rapier/**'],
  ),
  // The rapier entry: the only importer of @react-three/rapier.
  restrictImports(['src/react/rapier/**/*.{ts,tsx}'], [{ group: ['**/three/webgpu/**'], message: WEBGPU_ONLY.message }, WEBGPU_ONLY]),
  {
    // Scripts run in Node and hand functions to a browser page (playwright's evaluate).
    files: ['**/*.{js,mjs}'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
)
