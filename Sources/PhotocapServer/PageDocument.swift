/// The page at `/`: the viewfinder, the shutter with the photo's settings, the events of the
/// capture in progress and the gallery. One self-contained document (no files to install
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
<img id="viewfinder" alt="viewfinder">
<div id="frameinfo"></div>
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
let frames = 0;
let frameInterval = 100;
function nextFrame() {
  const started = performance.now();
  const image = new Image();
  image.onload = () => {
    $("viewfinder").src = image.src;
    frames += 1;
    $("frameinfo").textContent = "frame " + frames;
    setTimeout(nextFrame, Math.max(0, frameInterval - (performance.now() - started)));
  };
  image.onerror = () => setTimeout(nextFrame, 500);
  image.src = withToken("/api/viewfinder?t=" + Date.now());
}

async function refreshStatus() {
  try {
    const s = await api("/api/status");
    frameInterval = 1000 / Number(s.viewfinderRate || 10);
    $("status").textContent = s.device + " · rotation " + s.rotation + "° (" + s.rotationSource + ") · lighting " + s.lighting
      + (s.flashScene === "true" ? " · flash scene" : "") + (s.capturing === "true" ? " · capturing" : "");
  } catch (e) { $("status").textContent = e.message; }
}

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
