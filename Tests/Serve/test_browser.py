"""The page in a real browser (Debian's chromium, driven by Playwright): the viewfinder updates,
the shutter adds a photo whose displayed image is upright, the download is the file on disk.
Screenshots go to SCREENSHOTS (default .build/serve-screenshots)."""
import os
import subprocess
import tempfile
import time

from servetest import Server

PHOTOCAP = os.environ["PHOTOCAP"]
SCREENSHOTS = os.environ.get("SCREENSHOTS", ".build/serve-screenshots")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# The colour at the middle of each quadrant's outer part, drawn as the browser shows the image
# (Chrome applies the EXIF orientation to <img> and to a canvas it is drawn on).
QUADRANTS = """(image) => {
  const canvas = document.createElement("canvas");
  canvas.width = image.naturalWidth; canvas.height = image.naturalHeight;
  const context = canvas.getContext("2d");
  context.drawImage(image, 0, 0);
  const at = (x, y) => Array.from(context.getImageData(Math.floor(x * canvas.width), Math.floor(y * canvas.height), 1, 1).data.slice(0, 3));
  return [at(0.1, 0.1), at(0.9, 0.1), at(0.1, 0.9), at(0.9, 0.9)];
}"""


def colour(rgb):
    r, g, b = rgb
    if r > 140 and g > 140 and b < 110:
        return "yellow"
    if r > 140 and g < 110 and b < 110:
        return "red"
    if g > 140 and r < 110 and b < 110:
        return "green"
    if b > 140 and r < 110 and g < 140:
        return "blue"
    return f"other{rgb}"


def browser_page(playwright):
    browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"], timeout=30000)
    page = browser.new_page(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    page.set_default_timeout(20000)
    return browser, page


def wait_for_frames(page, count):
    page.wait_for_function(f"(() => {{ const m = document.getElementById('frameinfo').textContent.match(/frame (\\d+)/);"
                           f" return m && Number(m[1]) >= {count}; }})()")


def test_browser_synthetic_camera_shutter_gallery_download():
    from playwright.sync_api import sync_playwright
    os.makedirs(SCREENSHOTS, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        # Mounted at 90°: a photo without compensation is upright only if its orientation is applied.
        server = Server(PHOTOCAP, folder, ["--device", "synthetic", "--sensor-rotation", "90"])
        browser, page = browser_page(playwright)
        try:
            page.goto(server.url)
            wait_for_frames(page, 3)
            first = page.evaluate("document.getElementById('viewfinder').src")
            wait_for_frames(page, 6)
            viewfinder = page.query_selector("#viewfinder")
            assert page.evaluate("(image) => image.naturalWidth", viewfinder) > 0
            assert [colour(c) for c in page.evaluate(QUADRANTS, viewfinder)] == ["red", "green", "blue", "yellow"]
            assert page.evaluate("document.getElementById('viewfinder').src") != first
            # The frames are the camera's newest: their sequence numbers advance.
            sequences = []
            for _ in range(2):
                status, headers, _ = server.request("GET", "/api/viewfinder")
                assert status == 200
                sequences.append(int(headers["X-Frame-Sequence"]))
                time.sleep(0.5)
            assert sequences[1] > sequences[0], sequences

            page.select_option("select[name=compensation]", "off")
            page.fill("input[name=artist]", "Playwright")
            page.click("#shutter")
            page.wait_for_selector(".photo img")
            image = page.query_selector(".photo img")
            page.wait_for_function("(image) => image.complete && image.naturalWidth > 0", arg=image)
            photo_id = page.get_attribute(".photo", "data-id")
            status, record = server.json("GET", f"/api/photos/{photo_id}")
            assert status == 200
            settings = record["settings"]
            assert settings["orientationWritten"] != 1, settings
            natural = page.evaluate("(image) => [image.naturalWidth, image.naturalHeight]", image)
            shown = settings["displayedDimensions"]
            assert natural == [shown["width"], shown["height"]], (natural, shown)
            assert [colour(c) for c in page.evaluate(QUADRANTS, image)] == ["red", "green", "blue", "yellow"]
            assert "shutter after" in page.inner_text("#result")
            events = page.inner_text("#events")
            for callback in ["willBeginCapture", "willCapturePhoto", "didFinishProcessingPhoto", "didFinishCapture"]:
                assert callback in events, events
            page.screenshot(path=os.path.join(SCREENSHOTS, "synthetic.png"), full_page=True)

            with page.expect_download() as download:
                page.click(".photo a")
            with open(download.value.path(), "rb") as downloaded, open(os.path.join(folder, photo_id), "rb") as on_disk:
                assert downloaded.read() == on_disk.read()

            # A refused setting shows the command line's sentence.
            page.fill("input[name=bracket]", "-2,x")
            page.click("#shutter")
            page.wait_for_selector("#result .error")
            assert "is not an exposure bias in EV" in page.inner_text("#result")
            page.fill("input[name=bracket]", "")

            page.click(".photo button")
            page.wait_for_function("document.querySelectorAll('.photo').length === 0")
            assert not os.path.exists(os.path.join(folder, photo_id))
        finally:
            browser.close()
            code, stderr = server.stop()
        assert code == 0, stderr


def test_browser_clip_with_people():
    from playwright.sync_api import sync_playwright
    os.makedirs(SCREENSHOTS, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        clip = os.path.join(folder, "people.y4m")
        picture = os.path.join(ROOT, "TestImages/faces/TeamMeeting2019.jpg")
        subprocess.run(["ffmpeg", "-v", "error", "-y", "-loop", "1", "-framerate", "10", "-t", "2", "-i", picture,
                        "-vf", "scale=640:-2,format=yuv420p", "-f", "yuv4mpegpipe", clip], check=True, timeout=60)
        photos = os.path.join(folder, "photos")
        server = Server(PHOTOCAP, photos, ["--frame-file", clip, "--loop"])
        browser, page = browser_page(playwright)
        try:
            page.goto(server.url)
            wait_for_frames(page, 5)
            assert page.evaluate("document.getElementById('viewfinder').naturalWidth") == 640
            page.click("#shutter")
            page.wait_for_selector(".photo img")
            image = page.query_selector(".photo img")
            page.wait_for_function("(image) => image.complete && image.naturalWidth > 0", arg=image)
            assert page.evaluate("(image) => image.naturalWidth", image) == 640
            page.screenshot(path=os.path.join(SCREENSHOTS, "clip.png"), full_page=True)
        finally:
            browser.close()
            code, stderr = server.stop()
        assert code == 0, stderr
