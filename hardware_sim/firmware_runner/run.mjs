// Runs the reference firmware (firmware_bridge/firmware/*.py) under real
// MicroPython compiled to WebAssembly, with the simulated HAL (pt_hal_sim).
//
//   node run.mjs MICROPYTHON_MJS FIRMWARE_DIR CONFIG_JSON
//
// Talks line by line over stdin/stdout with the Python bridge that owns the
// serial port (hardware_sim/firmware_runner/__init__.py):
//   in:  "U <hex>"   bytes from the host, for the simulated UART
//        "C <json>"  a control request (the world's hand: pull a card, ...)
//   out: "U <hex>"   bytes the firmware wrote to its UART
//        "R <json>"  the answer to the oldest control request
//        "P <text>"  the firmware's own print output (diagnostics)
//        "E <text>"  a fatal error; the process then exits
// The clock is real time (MicroPython's time.ticks_ms); Node calls the main
// loop's poll() every 2 ms and at once whenever bytes arrive.
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { pathToFileURL } from "node:url";

const [mpyModule, fwDir, configJson] = process.argv.slice(2);
const out = (line) => process.stdout.write(line + "\n");

const { loadMicroPython } = await import(pathToFileURL(mpyModule).href);
const mp = await loadMicroPython({
  heapsize: 192 * 1024, // about what MicroPython leaves for Python on a Pico
  stdout: (line) => out("P " + line),
  stderr: (line) => out("P " + line),
  linebuffer: true,
});

mp.FS.mkdir("/fw");
for (const name of fs.readdirSync(fwDir)) {
  if (name.endsWith(".py")) {
    mp.FS.writeFile("/fw/" + name, fs.readFileSync(path.join(fwDir, name)));
  }
}
mp.globals.set("CONFIG_JSON", configJson);
try {
  mp.runPython(`
import sys, json, binascii, gc
sys.path.insert(0, "/fw")
gc.collect()
_BASE = gc.mem_alloc()  # the interpreter and this glue, before any firmware
import pt_hal_sim, pt_app
_cfgs = json.loads(CONFIG_JSON)
if isinstance(_cfgs, dict):
    _cfgs = [_cfgs]  # one device; a list is several panels on one bus
_hals = [pt_hal_sim.SimHal(c) for c in _cfgs]
_apps = [pt_app.App(h, c) for h, c in zip(_hals, _cfgs)]

def _step(hexin):
    data = binascii.unhexlify(hexin) if hexin else b""
    tx = b""
    for hal, app in zip(_hals, _apps):
        if data:
            hal.feed(data)
        app.poll()
        tx += hal.take_tx()  # whole frames: each uart_write is one frame
    return binascii.hexlify(tx).decode() if tx else ""

def _bench(n):
    # frame-handling time: n frames through a second, private shoe, one main
    # loop pass each (decode, CRC, link, session, command, RESULT encoded)
    import time
    from pt_framing import encode_frame
    hal = pt_hal_sim.SimHal({"boot_seed": 7})
    app = pt_app.App(hal, {"kind": "shoe"})
    hal.feed(encode_frame(0, 0, 0, 0, 0x01, bytes((1, 0, 9, 0))))
    app.poll()
    hal.take_tx()
    out = {}
    for name in ("set_lights", "ping"):
        if name == "ping":
            base = app.session.link.next_seq
            frames = [encode_frame(0, 0, 0, base, 0x03, bytes((i & 0xFF, 0))) for i in range(n)]
        else:
            frames = [encode_frame(0, 1, i & 0xFF, i & 0xFF, 0x12, bytes((i & 0xFF, 0, 0, 1))) for i in range(n)]
        t0 = time.ticks_ms()
        for f in frames:
            hal.feed(f)
            app.poll()
            hal.take_tx()
        out[name + "_us"] = time.ticks_diff(time.ticks_ms(), t0) * 1000 / n
    out["frames"] = app.session.decoder.frames
    out["crc_errors"] = app.session.decoder.crc_errors
    return out

def _compile_all():
    # every firmware file, the Pico-only ones too, through the real compiler
    import os
    errors = {}
    for name in sorted(os.listdir("/fw")):
        if name.endswith(".py"):
            try:
                with open("/fw/" + name) as f:
                    compile(f.read(), name, "exec")
            except SyntaxError as exc:
                errors[name] = str(exc)
    return {"files": sorted(n for n in os.listdir("/fw") if n.endswith(".py")), "errors": errors}

def _control(text):
    req = json.loads(text)
    i = req.pop("dev", 0)
    if req.get("op") == "compile":
        return json.dumps(_compile_all())
    if req.get("op") == "stats":
        stats = _apps[i].stats()
        stats["mem_before_firmware"] = _BASE
        return json.dumps(stats)
    if req.get("op") == "bench":
        return json.dumps(_bench(req.get("n", 1000)))
    return json.dumps(_hals[i].control(req))
`);
} catch (err) {
  out("E " + String(err).replace(/\n/g, " | "));
  process.exit(3);
}
const step = mp.globals.get("_step");
const control = mp.globals.get("_control");

let rx = "";
function run() {
  let tx;
  try {
    tx = step(rx);
  } catch (err) {
    out("E " + String(err).replace(/\n/g, " | "));
    process.exit(3);
  }
  rx = "";
  if (tx) out("U " + tx);
}

const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  if (line.startsWith("U ")) {
    rx += line.slice(2);
    run();
  } else if (line.startsWith("C ")) {
    let answer;
    try {
      answer = control(line.slice(2));
    } catch (err) {
      answer = JSON.stringify({ error: String(err) });
    }
    out("R " + answer);
    run();
  }
});
lines.on("close", () => process.exit(0));
out("P ready");
// 2 ms: bytes from the host run the loop at once; the beam carries its own
// timestamps; timers (retransmission, gate travel) need no finer grain
setInterval(run, 2);
