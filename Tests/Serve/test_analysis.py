"""The faces and the smart-framing recommendation drawn over the viewfinder in a real browser,
and auto-framing switched from the page, on a clip of one person (the astronaut portrait whose
face is marked by hand in TestImages/faces/marked-faces.txt). Screenshots go to SCREENSHOTS."""
import os
import subprocess
import tempfile
import time

from servetest import Server
from test_browser import PHOTOCAP, ROOT, SCREENSHOTS, browser_page, wait_for_frames

# The portrait, 512x512, scaled to 480x480 and placed 80 px from the left of a 640x480 frame.
SCALE, LEFT, WIDTH, HEIGHT = 480 / 512, 80, 640, 480


def marked_face():
    """The hand-marked face of astronaut.png, normalised to the clip's frame: x, y, width, height."""
    with open(os.path.join(ROOT, "TestImages/faces/marked-faces.txt")) as marks:
        for line in marks:
            fields = line.split()
            if fields and fields[0] == "astronaut.png":
                x, y, w, h = (int(v) * SCALE for v in fields[1:5])
                return (x + LEFT) / WIDTH, y / HEIGHT, w / WIDTH, h / HEIGHT
    raise AssertionError("astronaut.png is not in marked-faces.txt")


def boxes(page, selector):
    """The boxes `selector` matches, normalised to the viewfinder image as the page shows it."""
    return page.evaluate("""(selector) => {
      const image = document.getElementById('viewfinder').getBoundingClientRect();
      return Array.from(document.querySelectorAll(selector)).map((div) => {
        const box = div.getBoundingClientRect();
        return [(box.left - image.left) / image.width, (box.top - image.top) / image.height,
                box.width / image.width, box.height / image.height];
      });
    }""", selector)


def centre(box):
    return box[0] + box[2] / 2, box[1] + box[3] / 2


def assert_near_marked(found, marked, what):
    (cx, cy), (mx, my) = centre(found), centre(marked)
    assert abs(cx - mx) < 0.06 and abs(cy - my) < 0.08, f"{what} {found} is not at the marked face {marked}"
    assert 0.6 < found[2] / marked[2] < 1.7, f"{what} {found} is not the size of the marked face {marked}"


def poll(server, path, done, seconds=20):
    deadline = time.monotonic() + seconds
    while True:
        status, report = server.json("GET", path)
        assert status == 200, report
        if done(report) or time.monotonic() > deadline:
            return report
        time.sleep(0.2)


def is_whole(framing):
    """Whether `framing` (a recommendation, or None) is the whole 640x480 picture."""
    return framing is None or (framing["aspectRatio"] == "4:3" and framing["zoomFactor"] == 1)


def whole(report):
    return report["fieldOfView"]["width"] == 1 and report["fieldOfView"]["height"] == 1


class Settled:
    """Whether auto-framing has applied a framing and stays there, with a face found in it."""

    def __init__(self):
        self.last = None

    def __call__(self, report):
        view, self.last = self.last, report["fieldOfView"]
        return view == self.last and self.last["width"] < 0.99 and report["faces"]["faces"]


def test_browser_faces_and_framing_over_the_viewfinder_and_auto_framing():
    from playwright.sync_api import sync_playwright
    os.makedirs(SCREENSHOTS, exist_ok=True)
    marked = marked_face()
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        clip = os.path.join(folder, "person.y4m")
        picture = os.path.join(ROOT, "TestImages/faces/astronaut.png")
        subprocess.run(["ffmpeg", "-v", "error", "-y", "-loop", "1", "-framerate", "10", "-t", "2", "-i", picture,
                        "-vf", f"scale=480:480,pad={WIDTH}:{HEIGHT}:{LEFT}:0,format=yuv420p", "-f", "yuv4mpegpipe", clip],
                       check=True, timeout=60)
        server = Server(PHOTOCAP, os.path.join(folder, "photos"), ["--frame-file", clip, "--loop"])
        browser, page = browser_page(playwright)
        try:
            page.goto(server.url)
            wait_for_frames(page, 3)
            assert page.query_selector_all("#overlay div") == [], "nothing is drawn until asked"
            page.check("#showFaces")
            page.check("#showFraming")
            page.wait_for_selector("#overlay .face")
            page.wait_for_selector("#overlay .framing")
            faces = boxes(page, "#overlay .face")
            assert len(faces) == 1, faces
            assert_near_marked(faces[0], marked, "the face box drawn")
            framing = boxes(page, "#overlay .framing")[0]
            assert framing[0] > -0.01 and framing[1] > -0.01 and framing[0] + framing[2] < 1.01 and framing[1] + framing[3] < 1.01, framing
            fx, fy = centre(faces[0])
            assert framing[0] < fx < framing[0] + framing[2] and framing[1] < fy < framing[1] + framing[3], \
                f"the recommended framing {framing} leaves out the face {faces[0]}"
            page.screenshot(path=os.path.join(SCREENSHOTS, "analysis.png"), full_page=True)

            # Off: the camera shows the whole picture.
            report = poll(server, "/api/analysis?framing=1", lambda r: whole(r) and not is_whole(r["framing"].get("recommended")))
            assert not report["autoFraming"] and report["fieldOfView"]["width"] == 1, report
            recommended = report["framing"]["recommended"]
            assert not is_whole(recommended), \
                f"one person: a closer framing than the whole picture is recommended, not {recommended}"

            # On from the page: the camera applies the recommendation, so the viewfinder shows less.
            page.check("#autoFraming")
            settled = Settled()
            report = poll(server, "/api/analysis?faces=1", settled)
            assert report["autoFraming"], report
            assert report["fieldOfView"]["width"] < 0.99, f"auto-framing applied nothing: {report}"
            assert report["applied"]["zoomFactor"] > 1 or report["applied"]["aspectRatio"] not in (None, "4:3"), report
            # The face is still reported where it is, in the framed viewfinder's coordinates.
            view = report["fieldOfView"]
            in_view = ((marked[0] - view["x"]) / view["width"], (marked[1] - view["y"]) / view["height"],
                       marked[2] / view["width"], marked[3] / view["height"])
            face = report["faces"]["faces"][0]["bounds"]
            (cx, cy), (mx, my) = centre((face["x"], face["y"], face["width"], face["height"])), centre(in_view)
            assert abs(cx - mx) < 0.12 and abs(cy - my) < 0.12, f"face {face} in the framed view {view}, marked {in_view}"
            page.wait_for_timeout(500)
            page.screenshot(path=os.path.join(SCREENSHOTS, "auto-framing.png"), full_page=True)

            page.uncheck("#autoFraming")
            report = poll(server, "/api/analysis", lambda r: not r["autoFraming"], seconds=5)
            assert not report["autoFraming"], report
            page.uncheck("#showFaces")
            page.uncheck("#showFraming")
            page.wait_for_function("document.querySelectorAll('#overlay div').length === 0")
        finally:
            browser.close()
            code, stderr = server.stop()
        assert code == 0, stderr
