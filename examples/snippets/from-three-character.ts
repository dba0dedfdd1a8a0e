import type { Scene } from 'three'
// Was: import { MD2Character } from 'three/addons/misc/MD2Character.js'
import { MD2Character } from 'react-three-md2/three'

// three.js's MD2Character code, unchanged: the config, onLoadComplete, the clip list, update(delta).
export function addRatamahatta(scene: Scene): MD2Character {
  // ({ handedness: 'three' }) for three's mirror image; a load stalled past loadTimeout ends in onLoadError.
  const character = new MD2Character({ loadTimeout: 20_000 })
  character.scale = 0.03
  character.onLoadComplete = () => {
    const clips = character.meshBody!.geometry.animations // stand, run, attack, pain, … (three's 16)
    character.setAnimation(clips[0]!.name)
    character.setWeapon(0)
  }
  character.onLoadError = (error) => console.error(error.code, error.message) // LOAD_FAILED, naming the file
  character.loadParts({
    baseUrl: 'models/md2/ratamahatta/',
    body: 'ratamahatta.md2',
    skins: ['ratamahatta.png', 'ctf_b.png'], // or Quake II's own: 'ratamahatta.pcx'
    weapons: [['weapon.md2', 'weapon.png']],
  })
  scene.add(character.root)
  return character // call character.update(delta) each frame, character.dispose() when done
}
