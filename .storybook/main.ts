import type { StorybookConfig } from '@storybook/react-vite'
import { fileURLToPath } from 'node:url'
import remarkGfm from 'remark-gfm'
import { mergeConfig } from 'vite'

/** The package's entries, resolved to their source (as tsconfig.json's `paths` do for the type check). */
const ENTRIES = {
  'react-three-md2': '../src/index.ts',
  'react-three-md2/core': '../src/core/index.ts',
  'react-three-md2/three': '../src/three/index.ts',
  'react-three-md2/webgpu': '../src/three/webgpu/index.ts',
  'react-three-md2/rapier': '../src/react/rapier/index.ts',
}

const config: StorybookConfig = {
  framework: '@storybook/react-vite',
  stories: ['../stories/Introduction.mdx', '../stories/**/*.mdx', '../stories/**/*.stories.@(ts|tsx)'],
  addons: [
    // GitHub-flavoured markdown in the MDX pages: without it their tables are shown as lines of `|` text.
    { name: '@storybook/addon-docs', options: { mdxPluginOptions: { mdxCompileOptions: { remarkPlugins: [remarkGfm] } } } },
    '@storybook/addon-vitest',
  ],
  // The bundled real models and skins, served as they are (never copied into src).
  // (Mounted at /models, not /assets: story modules import `assets/...?md2-animations` and
  // `assets/...?raw`, and vite must see those URLs rather than the static files.)
  staticDirs: [
    { from: '../assets', to: '/models' },
    { from: '../stories/fixtures', to: '/fixtures' },
    // The README's pictures, for the docs pages.
    { from: '../docs/images', to: '/images' },
    // The arena example's models, where the app serves them (its folders as Quake II keeps them).
    { from: '../assets/quake2', to: '/players' },
  ],
  core: { disableTelemetry: true },
  // Props tables from the TypeScript types (MD2ModelProps and the hooks' options), descriptions from TSDoc.
  typescript: {
    reactDocgen: 'react-docgen-typescript',
    reactDocgenTypescriptOptions: {
      shouldExtractLiteralValuesFromEnum: true,
      // Group props only from this library, not every prop of three's <group>.
      propFilter: (prop) => !prop.parent || !/node_modules/.test(prop.parent.fileName),
    },
  },
  viteFinal: async (viteConfig) => {
    // Imported when needed: the plugin runs the library's own TypeScript parser.
    const { md2AnimationsPlugin } = await import('./md2-animations-plugin.js')
    return mergeConfig(viteConfig, {
      plugins: [md2AnimationsPlugin()],
      resolve: {
        // The arena story runs examples/arena's game, which imports the package by name: here, its source.
        alias: Object.entries(ENTRIES).map(([entry, file]) => ({
          find: new RegExp(`^${entry.replace('/', '\\/')}$`),
          replacement: fileURLToPath(new URL(file, import.meta.url)),
        })),
        // One copy of each, whatever the example's own node_modules holds.
        dedupe: ['react', 'react-dom', 'three', '@react-three/fiber'],
      },
    })
  },
}

export default config
