import { Mesh, MeshLambertMaterial, type Texture } from 'three'
import { MD2AnimationController, MD2Loader, createMD2Geometry, threeAnimationGroups, writeMD2Pose } from 'react-three-md2/three'

// The library's own path, what MD2Character runs on: the file's bytes kept, one pose written per frame.
export async function loadOgro(url: string, skin: Texture) {
  const model = await new MD2Loader().loadAsync(url)
  const geometry = createMD2Geometry(model)
  const mesh = new Mesh(geometry, new MeshLambertMaterial({ map: skin }))
  // three's animation list (16 for Ratamahatta); without it, the library's own (pain1–pain3 apart: 27).
  const controller = new MD2AnimationController(model, threeAnimationGroups(model))
  controller.play('run', { crossfade: 0.25 })
  const update = (delta: number) => {
    if (controller.update(delta)) writeMD2Pose(geometry, controller.pose)
  }
  return { mesh, controller, update }
}
