/// The page at `/`: the viewfinder (with the faces and the framing recommendation drawn over it
/// on request, and auto-framing on and off), the shutter with the photo's settings, the events
/// of the capture in progress and the gallery. One self-contained document (no files to install
/// beside the executable), using the API like any program.
enum PageDocument {
    static let html = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>photocap</title>
<style>
body { font: 15px system-ui, sans-serif; margin: 0; background: #111; color: #eee; }
header { padding: 8px 16px; background: #222; display: flex; gap: 24px; align-items: center; }
main { display: grid; grid-template-columns: minmax(320px, 2fr) 1fr; gap: 16px; padding: 16px; }
#viewfinder { max-width: 100%; max-height: 70vh; background: #000; display: block; }
#screen { position: relative; display: inline-block; }
#overlay { position: absolute; inset: 0; pointer-events: none; overflow: hidden; }
#overlay div { position: absolute; box-sizing: border-box; }
#overlay .face { border: 2px solid #4f4; }
#overlay .framing { border: 2px dashed #fc3; }
#analysis label { display: inline-block; margin-right: 16px; }
fieldset { border: 1px solid #444; margin: 0 0 12px; }
label { display: block; margin: 4px 0; }
button { font-size: 16px; padding: 6px 14px; }
#shutter { font-size: 20px; padding: 10px 28px; border-radius: 24px; }
#shutter.flash { background: #fff; }
#events { font: 12px monospace; max-height: 160px; overflow-y: auto; white-space: pre; }
#gallery { display: flex; flex-wrap: wrap; gap: 12px; padding: 0 16px 16px; }
.photo { background: #222; padding: 8px; width: 260px; font-size: 12px; }
.photo img { max-width: 100%; max-height: 240px; display: block; margin-bottom: 4px; }
.error { color: #f66; }
</style>
</head>
<body>
<header><strong>photocap</strong><span id="status">connecting…</span></header>
<main>
<section>
<div id="screen"><img id="viewfinder" alt="viewfinder"><div id="overlay"></div></div>
<div id="frameinfo"></div>
<div id="analysis">
<label><input type="checkbox" id="showFaces"> Faces</label>
<label><input type="checkbox" id="showFraming"> Framing</label>
<label><input type="checkbox" id="autoFraming"> Auto-framing</label>
<span id="analysisinfo"></span>
</div>
</section>
<section>
<form id="settings">
<fieldset><legend>Photo</legend>
<label>Format <select name="format"><option>jpeg</option><option>heic</option><option>tiff</option><option>dng</option><option value="raw+jpeg">RAW + JPEG</option></select></label>
<label>Compensation <select name="compensation"><option value="on">on</option><option value="off">off</option><option value="upright">upright</option></select></label>
<label>Quality prioritization <select name="qualityPrioritization"><option>balanced</option><option>speed</option><option>quality</option></select></label>
<label>Bracket (EV) <input name="bracket" placeholder="-2,0,+2"></label>
<label>Preview size <input name="preview" placeholder="320x240"></label>
<label>Author <input name="artist"></label>
</fieldset>
<button id="shutter" type="submit">Take photo</button>
</form>
<div id="result"></div>
<div id="events"></div>
</section>
</main>
<div id="gallery"></div>
<script>
const token = new URLSearchParams(location.search).get("token");
const withToken = (url) => token ? url + (url.includes("?") ? "&" : "?") + "token=" + encodeURIComponent(token) : url;
const headers = token ? { "X-Photocap-Token": token } : {};
const $ = (id) => document.getElementById(id);

async function api(path, options = {}) {
  const response = await fetch(path, { ...options, headers: { ...headers, ...(options.headers || {}) } });
  const body = response.status === 204 ? null : await response.json();
  if (!response.ok) throw new Error(body && body.error || response.statusText);
  return body;
}

// The viewfinder pulls the newest frame when the last one has arrived: a slow link gets fewer
// frames, never a queue of old ones.
// Each frame comes with the part of the whole picture it shows, which the overlay is drawn for.
let frames = 0;
let frameInterval = 100;
let shownFieldOfView = { x: 0, y: 0, width: 1, height: 1 };
async function nextFrame() {
  const started = performance.now();
  try {
    const response = await fetch(withToken("/api/viewfinder?t=" + Date.now()), { headers });
    if (!response.ok) throw new Error(response.statusText);
    const [x, y, width, height] = (response.headers.get("X-Field-Of-View") || "0,0,1,1").split(",").map(Number);
    const url = URL.createObjectURL(await response.blob());
    const image = new Image();
    await new Promise((resolve, reject) => { image.onload = resolve; image.onerror = reject; image.src = url; });
    const old = $("viewfinder").src;
    $("viewfinder").src = url;
    shownFieldOfView = { x, y, width, height };
    if (old.startsWith("blob:")) URL.revokeObjectURL(old);
    frames += 1;
    $("frameinfo").textContent = "frame " + frames;
    setTimeout(nextFrame, Math.max(0, frameInterval - (performance.now() - started)));
  } catch (e) {
    setTimeout(nextFrame, 500);
  }
}

async function refreshStatus() {
  try {
    const s = await api("/api/status");
    frameInterval = 1000 / Number(s.viewfinderRate || 10);
    $("status").textContent = s.device + " · rotation " + s.rotation + "° (" + s.rotationSource + ") · lighting " + s.lighting
      + (s.flashScene === "true" ? " · flash scene" : "") + (s.capturing === "true" ? " · capturing" : "");
  } catch (e) { $("status").textContent = e.message; }
}

// The faces and the recommended framing, drawn over the viewfinder while their boxes are
// ticked: asked for at the viewfinder's rate, the next request when the last has answered.
// A box of the report, normalised to the newest frame (`view`, a part of the whole picture),
// placed over the frame shown, which may show another part while auto-framing moves.
function place(box, view, className, title) {
  const shown = shownFieldOfView;
  box = { x: (view.x + box.x * view.width - shown.x) / shown.width, y: (view.y + box.y * view.height - shown.y) / shown.height,
          width: box.width * view.width / shown.width, height: box.height * view.height / shown.height };
  const div = document.createElement("div");
  div.className = className;
  div.title = title;
  div.style.left = (box.x * 100) + "%";
  div.style.top = (box.y * 100) + "%";
  div.style.width = (box.width * 100) + "%";
  div.style.height = (box.height * 100) + "%";
  return div;
}

// `showsToggle`: whether the report may set the auto-framing box; not one asked for before the
// box was last switched, which would undo the switch on the page.
function drawAnalysis(report, showsToggle = true) {
  const boxes = [];
  const notes = [];
  if ($("showFaces").checked && report.faces) {
    if (report.faces.error) notes.push(report.faces.error);
    for (const face of report.faces.faces) boxes.push(place(face.bounds, report.fieldOfView, "face", "face #" + face.id));
    notes.push(report.faces.faces.length + " face" + (report.faces.faces.length === 1 ? "" : "s"));
  }
  if ($("showFraming").checked && report.framing) {
    if (report.framing.error) notes.push(report.framing.error);
    const recommended = report.framing.recommended;
    if (recommended) {
      const name = recommended.aspectRatio + (recommended.zoomFactor === 1 ? "" : " ×" + recommended.zoomFactor);
      boxes.push(place(recommended.bounds, report.fieldOfView, "framing", "recommended " + name));
      notes.push("recommended " + name);
    }
  }
  if (showsToggle) $("autoFraming").checked = report.autoFraming;
  if (report.applied.aspectRatio) notes.push("applied " + report.applied.aspectRatio + " ×" + report.applied.zoomFactor);
  $("overlay").replaceChildren(...boxes);
  $("analysisinfo").textContent = notes.join(" · ");
}

let analysing = false;
async function nextAnalysis() {
  const faces = $("showFaces").checked, framing = $("showFraming").checked;
  if (!faces && !framing) { analysing = false; $("overlay").replaceChildren(); $("analysisinfo").textContent = ""; return; }
  analysing = true;
  const started = performance.now();
  const switches = autoFramingSwitches;
  try {
    const report = await api(`/api/analysis?faces=${faces ? 1 : 0}&framing=${framing ? 1 : 0}`);
    drawAnalysis(report, switches === autoFramingSwitches && switching === 0);
  } catch (e) { $("analysisinfo").textContent = e.message; }
  setTimeout(nextAnalysis, Math.max(0, frameInterval - (performance.now() - started)));
}
$("showFaces").onchange = $("showFraming").onchange = () => { if (!analysing) nextAnalysis(); };

let autoFramingSwitches = 0, switching = 0;
$("autoFraming").onchange = async () => {
  const enabled = $("autoFraming").checked;
  autoFramingSwitches += 1;
  switching += 1;
  try {
    drawAnalysis(await api("/api/auto-framing", { method: "PUT", headers: { "Content-Type": "application/json" },
                                                  body: JSON.stringify({ enabled }) }));
  } catch (e) {
    $("autoFraming").checked = !enabled;
    $("analysisinfo").textContent = e.message;
  } finally {
    switching -= 1;
  }
};

function settingsFromForm() {
  const form = new FormData($("settings"));
  const settings = {};
  for (const [key, value] of form.entries()) {
    if (value === "") continue;
    if (key === "format" && value === "raw+jpeg") { settings.rawPlus = "jpeg"; continue; }
    settings[key] = value;
  }
  return settings;
}

function photoCard(photo) {
  const s = photo.settings;
  const card = document.createElement("div");
  card.className = "photo";
  card.dataset.id = photo.id;
  const image = document.createElement("img");
  image.src = withToken(photo.displayURL);
  image.alt = photo.id;
  const info = document.createElement("div");
  info.textContent = `${photo.id} · #${s.uniqueID} · ${s.dimensions.width}×${s.dimensions.height} · orientation ${s.orientationWritten}`
    + ` · compensation ${s.orientationCompensation}${s.compensationApplied ? " (applied)" : ""}`;
  const download = document.createElement("a");
  download.href = withToken(photo.fileURL);
  download.textContent = "Download";
  download.setAttribute("download", photo.id);
  const remove = document.createElement("button");
  remove.textContent = "Delete";
  remove.onclick = async () => { await api(photo.url, { method: "DELETE" }); card.remove(); };
  card.append(image, info, download, " ", remove);
  return card;
}

async function refreshGallery() {
  const list = await api("/api/photos");
  const gallery = $("gallery");
  gallery.replaceChildren(...list.photos.reverse().map(photoCard));
}

$("settings").onsubmit = async (event) => {
  event.preventDefault();
  $("shutter").disabled = true;
  $("result").textContent = "";
  try {
    const taken = await api("/api/photos", { method: "POST", headers: { "Content-Type": "application/json" },
                                             body: JSON.stringify(settingsFromForm()) });
    $("result").textContent = `shutter after ${taken.shutterMs} ms, done after ${taken.totalMs} ms`;
    await refreshGallery();
  } catch (e) {
    $("result").innerHTML = "";
    const error = document.createElement("span");
    error.className = "error";
    error.textContent = e.message;
    $("result").append(error);
  } finally {
    $("shutter").disabled = false;
  }
};

const events = new EventSource(withToken("/api/events"));
events.onmessage = (message) => {
  const event = JSON.parse(message.data);
  if (event.type === "willCapturePhoto") {
    $("shutter").classList.add("flash");
    setTimeout(() => $("shutter").classList.remove("flash"), 150);
  }
  $("events").textContent += `${event.elapsedMs.toFixed(1).padStart(8)} ms  #${event.uniqueID} ${event.type}`
    + (event.photoID ? " " + event.photoID : "") + (event.error ? " " + event.error : "") + "\n";
  $("events").scrollTop = $("events").scrollHeight;
};

nextFrame();
refreshStatus();
setInterval(refreshStatus, 2000);
refreshGallery();
</script>
</body>
</html>
"""#
}
