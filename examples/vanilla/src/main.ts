/**
 * react-three-md2/three in a plain three.js app, no React: one Ogro loaded with `MD2Loader`, drawn with
 * `createMD2Geometry` and animated by an `MD2AnimationController` (the next animation, crossfaded, every
 * few seconds or on Space), and 300 more on the GPU crowd (`MD2Crowd`: one draw, animated in the
 * vertex shader). C shows and hides the crowd.
 */
import {
  CircleGeometry,
  Color,
  DirectionalLight,
  HemisphereLight,
  Matrix4,
  Mesh,
  MeshLambertMaterial,
  PerspectiveCamera,
  Scene,
  Timer,
  WebGLRenderer,
  type Texture,
} from 'three'
import {
  MD2AnimationController,
  MD2Crowd,
  MD2Loader,
  MD2SkinLoader,
  createMD2Geometry,
  getMissingSkinTexture,
  skinCandidates,
  writeMD2Pose,
  type MD2ModelData,
} from 'react-three-md2/three'

const MODEL_URL = 'players/ogro/tris.MD2'
/** What the Ogro in front plays, in turn. */
const ANIMATIONS = ['run', 'attack', 'wave', 'taunt', 'stand']
const CROSSFADE = 0.5
const SWITCH_EVERY = 4
/** The crowd: rows behind the Ogro, each instance playing one of these. */
const ROWS = 12
const COLUMNS = 25
const CROWD_ANIMATIONS = ['stand', 'run', 'attack', 'wave', 'salute', 'taunt', 'point', 'flip']

// The scene. An MD2 player stands about 56 units tall, Y up, facing +Z, its feet near y = -24.
const renderer = new WebGLRenderer({ antialias: true })
renderer.setPixelRatio(devicePixelRatio)
renderer.setSize(innerWidth, innerHeight)
document.body.append(renderer.domElement)
const scene = new Scene()
scene.background = new Color('#1d2733')
const camera = new PerspectiveCamera(45, innerWidth / innerHeight, 1, 4000)
camera.position.set(0, 40, 130)
camera.lookAt(0, 10, -150)
scene.add(new HemisphereLight('#ffffff', '#5a4a3a', 2.5))
const sun = new DirectionalLight('#ffffff', 3)
sun.position.set(40, 100, 90)
scene.add(sun)
const floor = new Mesh(new CircleGeometry(1200, 64), new MeshLambertMaterial({ color: '#6b7686' }))
floor.rotation.x = -Math.PI / 2
floor.position.y = -24
scene.add(floor)

/** The model's first skin, looked for where the library looks (next to the model first): the first URL that loads. */
async function loadSkin(modelUrl: string, model: MD2ModelData): Promise<Texture> {
  const loader = new MD2SkinLoader()
  for (const url of skinCandidates(modelUrl, model.skins[0] ?? '')) {
    try {
      return await loader.loadAsync(url)
    } catch {
      // Not there: the next place or spelling.
    }
  }
  return getMissingSkinTexture()
}

const model = await new MD2Loader().loadAsync(MODEL_URL)
const skin = await loadSkin(MODEL_URL, model)

// One Ogro: a geometry of its own, into which each frame's pose is written.
const ogro = new Mesh(createMD2Geometry(model), new MeshLambertMaterial({ map: skin }))
scene.add(ogro)
const controller = new MD2AnimationController(model)
const hud = document.getElementById('hud')!
let played = 0
let sinceSwitch = 0
function playNext(): void {
  const name = ANIMATIONS[played++ % ANIMATIONS.length]!
  controller.play(name, { crossfade: CROSSFADE })
  sinceSwitch = 0
  hud.textContent = `${name} · Space: next animation · C: crowd`
}
playNext()

// The crowd: the same model and skin, placed by matrices, each instance with its animation and speed.
const crowd = new MD2Crowd(model, { limit: ROWS * COLUMNS, map: skin, maxTextureSize: renderer.capabilities.maxTextureSize })
const matrix = new Matrix4()
for (let row = 0; row < ROWS; row++) {
  for (let column = 0; column < COLUMNS; column++) {
    const i = row * COLUMNS + column
    // Facing +Z, the camera's way, each turned a little towards the middle.
    matrix.makeRotationY((column - COLUMNS / 2) * -0.04)
    matrix.setPosition((column - (COLUMNS - 1) / 2) * 50, 0, -160 - row * 60)
    crowd.setMatrix(i, matrix)
    crowd.play(i, CROWD_ANIMATIONS[i % CROWD_ANIMATIONS.length]!, { speed: 0.8 + (i % 5) * 0.1 })
  }
}
scene.add(crowd)

addEventListener('keydown', (event) => {
  if (event.code === 'Space') playNext()
  if (event.code === 'KeyC') crowd.visible = !crowd.visible
})
addEventListener('resize', () => {
  camera.aspect = innerWidth / innerHeight
  camera.updateProjectionMatrix()
  renderer.setSize(innerWidth, innerHeight)
})

const timer = new Timer()
timer.connect(document)
let framesDrawn = 0
renderer.setAnimationLoop((time) => {
  timer.update(time)
  const seconds = timer.getDelta()
  sinceSwitch += seconds
  if (sinceSwitch >= SWITCH_EVERY) playNext()
  if (controller.update(seconds)) writeMD2Pose(ogro.geometry, controller.pose)
  crowd.update(seconds, camera)
  renderer.render(scene, camera)
  framesDrawn++
})

// For the browser test (test/vanilla.test.mjs): the app's state now, as plain data.
declare global {
  interface Window {
    __vanilla?: {
      state(): { frames: number; animation: string; frame: number; fading: number; crowd: number; drawn: number; crowdShown: boolean }
    }
  }
}
window.__vanilla = {
  state: () => ({
    frames: framesDrawn,
    animation: controller.animation.name,
    frame: controller.frame,
    fading: controller.pose.fadeWeight,
    crowd: crowd.size,
    drawn: crowd.count,
    crowdShown: crowd.visible,
  }),
}
