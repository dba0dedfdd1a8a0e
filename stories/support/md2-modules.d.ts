/// <reference types="vite/client" />

/** `.storybook/md2-animations-plugin.ts`: what our own parseMD2 found in the file at build time. */
declare module '*?md2-animations' {
  export interface FileAnimation {
    name: string
    start: number
    end: number
    fps: number
    source?: 'names' | 'quake2' | 'table'
  }
  export const animations: FileAnimation[]
  export const animationNames: string[]
  export const frameCount: number
  export const skins: string[]
  /** The skin images beside the model (label → URL under /models), the ones the file names first. */
  export const folderSkins: Record<string, string>
  /** The file names in the model's folder, sorted: `<MD2Player files>`. */
  export const folderFiles: string[]
  export const warnings: string[]
  export default animations
}
