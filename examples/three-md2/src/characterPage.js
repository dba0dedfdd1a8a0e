/**
 * One MD2Character (Ratamahatta, 5 skins, 11 weapons) on a lit patch of grass, driven by a GUI as three.js's
 * webgl_loader_md2 page drives three's class: a speed slider (setPlaybackRate), a wireframe switch
 * (setWireframe), then, once loaded, a button per skin (setSkin), per weapon (setWeapon) and per animation
 * (setAnimation). Written for this repository; the same code runs on three's class in the dist-three build.
 */
import { AmbientLight, Clock, Color, Fog, PerspectiveCamera, Scene, SpotLight } from 'three'
import { OrbitControls } from 'three/addons/controls/OrbitControls.js'
import { GUI } from 'three/addons/libs/lil-gui.module.min.js'
import { MD2Character } from 'react-three-md2/three'
import { addGrass, makeRenderer } from './stage.js'

const WEAPON_NAMES = [
  'bfg',
  'blaster',
  'chaingun',
  'glauncher',
  'hyperblaster',
  'machinegun',
  'railgun',
  'rlauncher',
  'shotgun',
  'sshotgun',
]

/** The character's files, laid out as three's page asks for them (public/models/md2/ratamahatta/). */
const RATAMAHATTA = {
  baseUrl: 'models/md2/ratamahatta/',
  body: 'ratamahatta.md2',
  skins: ['ratamahatta', 'ctf_b', 'ctf_r', 'dead', 'gearwhore'].map((name) => `${name}.png`),
  weapons: [['weapon.md2', 'weapon.png'], ...WEAPON_NAMES.map((name) => [`w_${name}.md2`, `w_${name}.png`])],
}

/** A file name without its extension, as a button's label. */
const stem = (file) => file.replace(/\.[^.]*$/, '')

function makeStage() {
  const camera = new PerspectiveCamera(40, innerWidth / innerHeight, 0.1, 100)
  camera.position.set(0, 2, 4)
  const { renderer, stats } = makeRenderer(camera)
  const orbit = new OrbitControls(camera, renderer.domElement)
  orbit.target.set(0, 0.5, 0)
  orbit.update()

  const scene = new Scene()
  scene.background = new Color(0x050505)
  scene.fog = new Fog(0x050505, 2.5, 10)
  scene.add(new AmbientLight(0x666666))
  // Two spotlights from the front, left and right, both casting shadows onto the grass.
  for (const [x, y, z] of [
    [2, 5, 10],
    [-1, 3.5, 3.5],
  ]) {
    const spot = new SpotLight(0xffffff, 150)
    spot.position.set(x, y, z)
    spot.angle = 0.5
    spot.penumbra = 0.5
    spot.castShadow = true
    spot.shadow.mapSize.set(1024, 1024)
    scene.add(spot)
  }
  addGrass(scene, 20, 8)
  return { renderer, scene, camera, stats }
}

const { renderer, scene, camera, stats } = makeStage()

const character = new MD2Character()
character.scale = 0.03
scene.add(character.root)

// The GUI: speed and wireframe at once; the skins, weapons and animations once the character is in.
const settings = { speed: 1, wireframe: false }
const gui = new GUI()
gui.add(settings, 'speed', 0, 2).onChange((speed) => character.setPlaybackRate(speed))
gui.add(settings, 'wireframe').onChange((on) => character.setWireframe(on))

/** A folder of buttons, one per label, each calling `press(index)`. */
function buttons(title, labels, press) {
  const folder = gui.addFolder(title)
  const actions = {}
  labels.forEach((label, index) => {
    actions[label] = () => press(index)
    folder.add(actions, label)
  })
}

character.onLoadComplete = () => {
  buttons(
    'Skins',
    character.skinsBody.map((skin) => stem(skin.name)),
    (index) => character.setSkin(index),
  )
  buttons(
    'Weapons',
    character.weapons.map((weapon) => stem(weapon.name)),
    (index) => {
      character.setWeapon(index)
      // A weapon shown while in wireframe is drawn in wireframe too.
      character.setWireframe(settings.wireframe)
    },
  )
  const clips = character.meshBody.geometry.animations.map((clip) => clip.name)
  buttons('Animations', clips, (index) => character.setAnimation(clips[index]))
  character.setAnimation(clips[0])
}
character.loadParts(RATAMAHATTA)

const clock = new Clock()
renderer.setAnimationLoop(() => {
  character.update(clock.getDelta())
  renderer.render(scene, camera)
  stats.update()
})
