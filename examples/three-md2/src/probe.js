/**
 * The test's window into a page (not part of three's page): records every character that loads or shares
 * parts, and reports them as plain data on `window.__md2.state()`. It wraps the classes' methods the page
 * imports, so it works the same on three's classes and the library's.
 */
import { MD2Character, MD2CharacterComplex } from 'react-three-md2/three'

const characters = []
const loaded = new Set()

for (const Class of [MD2Character, MD2CharacterComplex]) {
  for (const method of ['loadParts', 'shareParts']) {
    const original = Class.prototype[method]
    if (typeof original !== 'function') continue
    Class.prototype[method] = function (...args) {
      characters.push(this)
      if (method === 'shareParts') loaded.add(this)
      else {
        // The page may set onLoadComplete before or after loadParts: record the character when it is called.
        let wrapped = this.onLoadComplete
        Object.defineProperty(this, 'onLoadComplete', {
          configurable: true,
          get: () => () => {
            loaded.add(this)
            wrapped.call(this)
          },
          set: (value) => {
            wrapped = value
          },
        })
      }
      return original.apply(this, args)
    }
  }
}

let frames = 0
const countFrames = () => {
  frames++
  requestAnimationFrame(countFrames)
}
requestAnimationFrame(countFrames)

window.__md2 = {
  characters,
  state: () => ({
    frames,
    characters: characters.map((character) => ({
      loaded: loaded.has(character),
      clips: (character.meshBody?.geometry.animations ?? []).map((clip) => clip.name),
      skins: character.skinsBody.length,
      weapons: character.weapons.length,
      position: character.root.position.toArray(),
      rotationY: character.root.rotation.y,
      activeAnimation: character.activeAnimation ?? character.activeClipName ?? null,
      controls: character.controls ?? null,
    })),
  }),
}
