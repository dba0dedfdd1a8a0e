/**
 * A row of 13 Ogros, one per skin, made from one load with MD2CharacterComplex.shareParts and walked together
 * by the arrow keys (or WASD), as three.js's webgl_loader_md2_control page does with three's class: the keys
 * set one `controls` object every character reads; the camera and the sun ride on the middle one (a
 * Gyroscope keeps them upright as it turns). Written for this repository; the same code runs on three's class
 * in the dist-three build.
 */
import { AmbientLight, Clock, Color, DirectionalLight, Fog, PCFSoftShadowMap, PerspectiveCamera, Scene } from 'three'
import { OrbitControls } from 'three/addons/controls/OrbitControls.js'
import { Gyroscope } from 'three/addons/misc/Gyroscope.js'
import { MD2CharacterComplex } from 'react-three-md2/three'
import { addGrass, makeRenderer } from './stage.js'

const SKINS = ['grok.jpg', 'ogrobase.png', 'arboshak.png', 'ctf_r.png', 'ctf_b.png', 'darkam.png', 'freedom.png']
SKINS.push('gib.png', 'gordogh.png', 'igdosh.png', 'khorne.png', 'nabogro.png', 'sharokh.png')

/** The Ogro's files (public/models/md2/ogro/) and what it plays for each behaviour. */
const OGRO = {
  baseUrl: 'models/md2/ogro/',
  body: 'ogro.md2',
  skins: SKINS,
  weapons: [['weapon.md2', 'weapon.jpg']],
  animations: {
    move: 'run',
    idle: 'stand',
    jump: 'jump',
    attack: 'attack',
    crouchMove: 'cwalk',
    crouchIdle: 'cstand',
    crouchAttack: 'crattack',
  },
  walkSpeed: 350,
  crouchSpeed: 175,
}

/** Which `controls` field each key holds down. */
const KEYS = {
  ArrowUp: 'moveForward',
  KeyW: 'moveForward',
  ArrowDown: 'moveBackward',
  KeyS: 'moveBackward',
  ArrowLeft: 'moveLeft',
  KeyA: 'moveLeft',
  ArrowRight: 'moveRight',
  KeyD: 'moveRight',
}
const controls = { moveForward: false, moveBackward: false, moveLeft: false, moveRight: false }
for (const [type, down] of [
  ['keydown', true],
  ['keyup', false],
]) {
  document.addEventListener(type, (event) => {
    const field = KEYS[event.code]
    if (field) controls[field] = down
  })
}

const scene = new Scene()
scene.background = new Color(0xffffff)
scene.fog = new Fog(0xffffff, 1000, 4000)
scene.add(new AmbientLight(0x222222))

const camera = new PerspectiveCamera(45, innerWidth / innerHeight, 1, 4000)
camera.position.set(0, 150, 1300)
scene.add(camera)
const { renderer, stats } = makeRenderer(camera)
renderer.shadowMap.type = PCFSoftShadowMap
const orbit = new OrbitControls(camera, renderer.domElement)
orbit.target.set(0, 50, 0)
orbit.update()

// The sun: its shadow box spans the row of characters.
const sun = new DirectionalLight(0xffffff, 2.25)
sun.position.set(200, 450, 500)
sun.castShadow = true
sun.shadow.mapSize.set(1024, 512)
Object.assign(sun.shadow.camera, { near: 100, far: 1200, left: -1000, right: 1000, top: 350, bottom: -350 })
scene.add(sun)

addGrass(scene, 16000, 64)

// One character loads the files; each of the row shares its parts and wears one skin.
const row = SKINS.map(() => {
  const ogro = new MD2CharacterComplex()
  ogro.scale = 3
  ogro.controls = controls
  return ogro
})
const original = new MD2CharacterComplex()
original.scale = 3
original.onLoadComplete = () => {
  row.forEach((ogro, index) => {
    ogro.shareParts(original)
    ogro.enableShadows(true)
    ogro.setWeapon(0)
    ogro.setSkin(index)
    ogro.root.position.x = (index - row.length / 2) * 150
    scene.add(ogro.root)
  })
  const rider = new Gyroscope()
  rider.add(camera, sun, sun.target)
  row[Math.floor(row.length / 2)].root.add(rider)
}
original.loadParts(OGRO)

const clock = new Clock()
renderer.setAnimationLoop(() => {
  const delta = clock.getDelta()
  for (const ogro of row) ogro.update(delta)
  renderer.render(scene, camera)
  stats.update()
})
