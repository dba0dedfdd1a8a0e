/**
 * What both pages set up alike: a full-window renderer with shadows and a stats panel, kept to the window's
 * size, and three's grass texture on a ground plane that takes shadows.
 */
import { Mesh, MeshPhongMaterial, PlaneGeometry, RepeatWrapping, SRGBColorSpace, TextureLoader, WebGLRenderer } from 'three'
import Stats from 'three/addons/libs/stats.module.js'

/** The renderer (its canvas in the page), the stats panel, and `camera` kept to the window's aspect. */
export function makeRenderer(camera) {
  const renderer = new WebGLRenderer({ antialias: true })
  renderer.setPixelRatio(devicePixelRatio)
  renderer.setSize(innerWidth, innerHeight)
  renderer.shadowMap.enabled = true
  document.body.append(renderer.domElement)
  const stats = new Stats()
  document.body.append(stats.dom)
  addEventListener('resize', () => {
    camera.aspect = innerWidth / innerHeight
    camera.updateProjectionMatrix()
    renderer.setSize(innerWidth, innerHeight)
  })
  return { renderer, stats }
}

/** A `size` × `size` ground of grass, the texture repeated `repeat` times across it. */
export function addGrass(scene, size, repeat) {
  const grass = new TextureLoader().load('textures/terrain/grasslight-big.jpg')
  grass.wrapS = grass.wrapT = RepeatWrapping
  grass.repeat.set(repeat, repeat)
  grass.colorSpace = SRGBColorSpace
  const ground = new Mesh(new PlaneGeometry(size, size), new MeshPhongMaterial({ map: grass }))
  ground.rotation.x = -Math.PI / 2
  ground.receiveShadow = true
  scene.add(ground)
}
