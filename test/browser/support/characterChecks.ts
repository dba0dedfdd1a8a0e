/**
 * The checks three.js's MD2 character code must pass, written against three's classes' API only, so that
 * they run unchanged on three's own `MD2Character` / `MD2CharacterComplex` and on the library's.
 */
import { AmbientLight, Color, DirectionalLight, PerspectiveCamera, Scene, WebGLRenderer, type Object3D } from 'three'

/** What the checks use of an MD2Character (three's or the library's). */
export interface CharacterLike {
  scale: number
  root: Object3D
  meshBody: { geometry: unknown } | null
  weapons: unknown[]
  onLoadComplete: () => void
  loadParts(config: unknown): void
  setAnimation(name: string): void
  setPlaybackRate?(rate: number): void
  setWireframe(on: boolean): void
  setSkin(index: number): void
  setWeapon(index: number): void
  update(delta: number): void
}

export interface ComplexLike extends CharacterLike {
  controls: Record<string, boolean> | null
  activeAnimation: string | null
  shareParts(original: ComplexLike): void
  enableShadows(enable: boolean): void
}

/** Ratamahatta with two weapons, in three's config shape; PNG skins (three's TextureLoader reads no PCX). */
export const RATAMAHATTA_CONFIG = {
  baseUrl: '/assets/quake2/ratamahatta/',
  body: 'tris.md2',
  skins: ['../png/ratamahatta.png', '../png/ctf_b.png'],
  weapons: [
    ['weapon.MD2', '../png/weapon.png'],
    ['../pknight/w_bfg.md2', '../png/w_bfg.png'],
  ],
}

const SIZE = 160

/** A small WebGL view of one character, read back as pixels. */
export class CharacterView {
  readonly renderer = new WebGLRenderer({ preserveDrawingBuffer: true, antialias: false })
  readonly scene = new Scene()
  readonly camera = new PerspectiveCamera(45, 1, 1, 1000)

  constructor() {
    this.renderer.setSize(SIZE, SIZE)
    this.scene.background = new Color(0x000000)
    this.scene.add(new AmbientLight(0xffffff, 1))
    const light = new DirectionalLight(0xffffff, 2)
    light.position.set(50, 100, 150)
    this.scene.add(light)
    this.camera.position.set(0, 30, 110)
    this.camera.lookAt(0, 25, 0)
  }

  /** Draws the scene and returns its pixels (RGBA). */
  draw(): Uint8Array {
    this.renderer.render(this.scene, this.camera)
    const gl = this.renderer.getContext()
    const pixels = new Uint8Array(SIZE * SIZE * 4)
    gl.readPixels(0, 0, SIZE, SIZE, gl.RGBA, gl.UNSIGNED_BYTE, pixels)
    return pixels
  }

  dispose(): void {
    this.renderer.dispose()
  }
}

/** Pixels that are not the black background. */
export function drawnPixels(pixels: Uint8Array): number {
  let count = 0
  for (let i = 0; i < pixels.length; i += 4) if (pixels[i]! + pixels[i + 1]! + pixels[i + 2]! > 24) count++
  return count
}

/** Pixels that differ between two pictures by more than a little. */
export function changedPixels(a: Uint8Array, b: Uint8Array): number {
  let count = 0
  for (let i = 0; i < a.length; i += 4) {
    if (Math.abs(a[i]! - b[i]!) + Math.abs(a[i + 1]! - b[i + 1]!) + Math.abs(a[i + 2]! - b[i + 2]!) > 30) count++
  }
  return count
}

/** Calls `loadParts` and resolves when `onLoadComplete` is called (rejects after `ms`). */
export function loadCharacter(character: CharacterLike, config: unknown, ms = 30_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`onLoadComplete was not called within ${ms} ms`)), ms)
    character.onLoadComplete = () => {
      clearTimeout(timer)
      resolve()
    }
    character.loadParts(config)
  })
}

/** The animation names three's example GUI lists (`meshBody.geometry.animations`, by name). */
export function clipNames(character: CharacterLike): string[] {
  const animations = (character.meshBody!.geometry as { animations?: { name: string }[] }).animations ?? []
  return animations.map((clip) => clip.name)
}
