import { defineConfig } from 'vite'

export default defineConfig({
  // One chunk for a one-page app: three.js is most of it.
  build: { chunkSizeWarningLimit: 1200 },
})
