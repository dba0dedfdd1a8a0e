import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'

/**
 * Built twice: as the pages are (MD2Character and MD2CharacterComplex from react-three-md2/three), into dist/,
 * and with `MD2_CLASSES=three` into dist-three/, where that one import resolves to three.js's own classes
 * (src/three-classes.js), so the same page code and the same checks run on both.
 */
const threeClasses = process.env.MD2_CLASSES === 'three'

export default defineConfig({
  resolve: threeClasses
    ? { alias: [{ find: /^react-three-md2\/three$/, replacement: fileURLToPath(new URL('src/three-classes.js', import.meta.url)) }] }
    : {},
  build: {
    outDir: threeClasses ? 'dist-three' : 'dist',
    // three.js is most of each page.
    chunkSizeWarningLimit: 1200,
    rollupOptions: {
      input: {
        main: fileURLToPath(new URL('index.html', import.meta.url)),
        control: fileURLToPath(new URL('control.html', import.meta.url)),
      },
    },
  },
})
