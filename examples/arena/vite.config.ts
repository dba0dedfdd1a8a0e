import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

export default defineConfig({
  plugins: [react()],
  // One chunk for a one-page game: three.js alone is about 700 kB of it.
  build: { chunkSizeWarningLimit: 1600 },
})
