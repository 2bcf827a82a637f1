/// The API's OpenAPI 3.1 document, served at `/openapi.json`.
enum OpenAPIDocument {
    static let json = #"""
{
  "openapi": "3.1.0",
  "info": {
    "title": "photocap serve",
    "version": "1",
    "description": "Still photos from the camera photocap serve runs. Off loopback every request carries the server's token: X-Photocap-Token header (or Authorization: Bearer), or ?token= on a GET. A POST or PUT sends Content-Type: application/json. Errors are {\"error\": sentence}; refused settings get the sentence photocap shoot prints."
  },
  "components": {
    "securitySchemes": {
      "tokenHeader": { "type": "apiKey", "in": "header", "name": "X-Photocap-Token" },
      "tokenQuery": { "type": "apiKey", "in": "query", "name": "token" }
    },
    "schemas": {
      "Error": { "type": "object", "required": ["error"], "properties": { "error": { "type": "string" } } },
      "PhotoSettings": {
        "type": "object",
        "description": "The photo's settings, as photocap shoot's options of the same names; all optional.",
        "additionalProperties": false,
        "properties": {
          "format": { "enum": ["jpeg", "heic", "tiff", "dng"] },
          "rawPlus": { "enum": ["jpeg", "heic", "tiff"], "description": "A DNG and a processed photo in this format from one frame." },
          "compensation": { "enum": ["on", "off", "upright"] },
          "quality": { "type": "integer", "minimum": 1, "maximum": 100 },
          "heicSpeed": { "type": "string" },
          "qualityPrioritization": { "enum": ["speed", "balanced", "quality"] },
          "bracket": { "oneOf": [{ "type": "string", "examples": ["-2,0,+2"] }, { "type": "array", "items": { "type": "number" } }] },
          "bracketManual": { "type": "string", "examples": ["1/100@100,1/50@200"] },
          "settleFrames": { "type": "integer" },
          "preview": { "type": "string", "examples": ["320x240"] },
          "thumbnail": { "type": "string", "examples": ["160x120"] },
          "aspect": { "enum": ["1:1", "3:4", "4:3", "9:16", "16:9"] },
          "zoom": { "type": "number", "minimum": 1, "maximum": 8 },
          "focus": { "type": "string" },
          "artist": { "type": "string" },
          "copyright": { "type": "string" },
          "description": { "type": "string" },
          "comment": { "type": "string" },
          "location": { "type": "string", "examples": ["48.85,2.35,35"] }
        }
      },
      "Photo": {
        "type": "object",
        "required": ["id", "url", "fileURL", "displayURL", "format", "bytes", "uniqueID", "settings"],
        "properties": {
          "id": { "type": "string" },
          "url": { "type": "string" },
          "fileURL": { "type": "string", "description": "The original file, byte for byte." },
          "displayURL": { "type": "string", "description": "The photo as a viewer shows it: JPEG as written (browsers apply its orientation), other formats decoded upright as PNG." },
          "format": { "type": "string" },
          "bytes": { "type": "integer" },
          "uniqueID": { "type": "integer" },
          "settings": { "type": "object", "description": "The resolved settings, as photocap shoot --json reports them (uniqueID, dimensions, orientationWritten, compensationApplied, orientationCompensation, ...)." }
        }
      },
      "Box": {
        "type": "object",
        "description": "A rectangle normalised to the upright viewfinder image as shown: 0,0 its top left, 1,1 its bottom right.",
        "required": ["x", "y", "width", "height"],
        "properties": { "x": { "type": "number" }, "y": { "type": "number" }, "width": { "type": "number" }, "height": { "type": "number" } }
      },
      "Analysis": {
        "type": "object",
        "required": ["fieldOfView", "autoFraming", "applied"],
        "properties": {
          "viewfinderSequence": { "type": "integer", "description": "The viewfinder's newest frame (X-Frame-Sequence of /api/viewfinder)." },
          "fieldOfView": { "$ref": "#/components/schemas/Box", "description": "The part of the whole upright picture the viewfinder shows, normalised to the whole picture." },
          "autoFraming": { "type": "boolean" },
          "applied": { "type": "object", "description": "The framing the camera applies now.", "properties": { "aspectRatio": { "type": "string" }, "zoomFactor": { "type": "number" } } },
          "faces": {
            "type": "object",
            "description": "With faces=1: the faces of the newest analysed frame, tracked (a person keeps an id).",
            "properties": {
              "detector": { "type": "string", "examples": ["YuNet"] },
              "frameSequence": { "type": "integer", "description": "The frame the faces were found in." },
              "faces": { "type": "array", "items": { "type": "object", "properties": { "id": { "type": "integer" }, "bounds": { "$ref": "#/components/schemas/Box" } } } },
              "error": { "type": "string" }
            }
          },
          "framing": {
            "type": "object",
            "description": "With framing=1: the smart framing monitor's recommendation, absent until its first frame is analysed.",
            "properties": {
              "recommended": { "type": "object", "properties": { "aspectRatio": { "type": "string" }, "zoomFactor": { "type": "number" }, "bounds": { "$ref": "#/components/schemas/Box", "description": "The part of the viewfinder image the framing keeps (beyond 0...1 where the viewfinder shows less)." } } },
              "detector": { "type": "string" },
              "analysedFrames": { "type": "integer" },
              "error": { "type": "string" }
            }
          }
        }
      },
      "Capture": {
        "type": "object",
        "required": ["uniqueID", "url", "shutterMs", "totalMs", "photos"],
        "properties": {
          "uniqueID": { "type": "integer" },
          "url": { "type": "string" },
          "shutterMs": { "type": "number", "description": "From the request's arrival to the shutter moment." },
          "totalMs": { "type": "number", "description": "From the request's arrival to the last photo written." },
          "error": { "type": "string", "description": "A later photo of the request failed; the ones listed were written." },
          "photos": { "type": "array", "items": { "$ref": "#/components/schemas/Photo" } }
        }
      }
    },
    "responses": {
      "Analysis": { "description": "The analysis", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Analysis" } } } },
      "Error": { "description": "Refused", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } }
    },
    "parameters": {
      "id": { "name": "id", "in": "path", "required": true, "schema": { "type": "string" } }
    }
  },
  "security": [{}, { "tokenHeader": [] }, { "tokenQuery": [] }],
  "paths": {
    "/api/photos": {
      "get": {
        "summary": "The photos taken, oldest first",
        "responses": {
          "200": { "description": "The list", "content": { "application/json": { "schema": { "type": "object", "properties": { "photos": { "type": "array", "items": { "$ref": "#/components/schemas/Photo" } } } } } } },
          "401": { "$ref": "#/components/responses/Error" }
        }
      },
      "post": {
        "summary": "Take a photo; waits behind the capture in progress",
        "requestBody": { "required": false, "content": { "application/json": { "schema": { "$ref": "#/components/schemas/PhotoSettings" } } } },
        "responses": {
          "201": { "description": "Taken", "headers": { "Location": { "schema": { "type": "string" } } }, "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Capture" } } } },
          "400": { "$ref": "#/components/responses/Error" },
          "401": { "$ref": "#/components/responses/Error" },
          "403": { "$ref": "#/components/responses/Error" },
          "413": { "$ref": "#/components/responses/Error" },
          "415": { "$ref": "#/components/responses/Error" },
          "500": { "$ref": "#/components/responses/Error" },
          "503": { "$ref": "#/components/responses/Error" }
        }
      }
    },
    "/api/photos/{id}": {
      "parameters": [{ "$ref": "#/components/parameters/id" }],
      "get": {
        "summary": "One photo's record",
        "responses": {
          "200": { "description": "The photo", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Photo" } } } },
          "404": { "$ref": "#/components/responses/Error" }
        }
      },
      "delete": {
        "summary": "Delete the photo and its file",
        "responses": { "204": { "description": "Deleted" }, "404": { "$ref": "#/components/responses/Error" } }
      }
    },
    "/api/photos/{id}/file": {
      "parameters": [{ "$ref": "#/components/parameters/id" }],
      "get": {
        "summary": "The original file, byte for byte",
        "responses": {
          "200": { "description": "The file", "content": { "image/jpeg": {}, "image/heic": {}, "image/tiff": {}, "image/x-adobe-dng": {} } },
          "404": { "$ref": "#/components/responses/Error" }
        }
      }
    },
    "/api/photos/{id}/display": {
      "parameters": [{ "$ref": "#/components/parameters/id" }],
      "get": {
        "summary": "The photo as a viewer shows it",
        "responses": {
          "200": { "description": "JPEG as written, or PNG decoded upright", "content": { "image/jpeg": {}, "image/png": {} } },
          "404": { "$ref": "#/components/responses/Error" },
          "415": { "$ref": "#/components/responses/Error" }
        }
      }
    },
    "/api/events": {
      "get": {
        "summary": "Server-sent events: the photo delegate's callbacks",
        "description": "Each event's data is JSON: type (queued, willBeginCapture, willCapturePhoto, didCapturePhoto, didFinishProcessingPhoto, didFinishCapture), uniqueID, elapsedMs since the request arrived, photoID, error. At most --max-viewers streams at once.",
        "responses": {
          "200": { "description": "The stream", "content": { "text/event-stream": {} } },
          "503": { "$ref": "#/components/responses/Error" }
        }
      }
    },
    "/api/viewfinder": {
      "get": {
        "summary": "The newest viewfinder frame, upright, as PNG",
        "responses": {
          "200": { "description": "The frame; X-Frame-Sequence names it, X-Field-Of-View (x,y,width,height) is the part of the whole upright picture it shows", "content": { "image/png": {} } },
          "503": { "$ref": "#/components/responses/Error" }
        }
      }
    },
    "/api/analysis": {
      "get": {
        "summary": "The faces and the smart framing recommendation on the viewfinder, and the auto-framing state",
        "description": "Each analysis starts at the first request asking for it and pauses 5 s after the last; it runs on the viewfinder's frames, newest only, never delaying a photo.",
        "parameters": [
          { "name": "faces", "in": "query", "schema": { "enum": ["0", "1"] }, "description": "1: the faces." },
          { "name": "framing", "in": "query", "schema": { "enum": ["0", "1"] }, "description": "1: the recommendation." }
        ],
        "responses": { "200": { "$ref": "#/components/responses/Analysis" }, "401": { "$ref": "#/components/responses/Error" } }
      }
    },
    "/api/auto-framing": {
      "put": {
        "summary": "Turn auto-framing on or off",
        "description": "On, the camera applies each recommendation itself, easing the zoom; off, the framing in effect stays. Answers the analysis with the recommendation.",
        "requestBody": { "required": true, "content": { "application/json": { "schema": { "type": "object", "required": ["enabled"], "additionalProperties": false, "properties": { "enabled": { "type": "boolean" } } } } } },
        "responses": {
          "200": { "$ref": "#/components/responses/Analysis" },
          "400": { "$ref": "#/components/responses/Error" },
          "401": { "$ref": "#/components/responses/Error" },
          "403": { "$ref": "#/components/responses/Error" },
          "409": { "$ref": "#/components/responses/Error" },
          "413": { "$ref": "#/components/responses/Error" },
          "415": { "$ref": "#/components/responses/Error" }
        }
      }
    },
    "/api/status": {
      "get": {
        "summary": "The camera: name, sensor rotation, device rotation and its source, scene lighting, flash scene, capture queue",
        "responses": { "200": { "description": "The status", "content": { "application/json": { "schema": { "type": "object", "additionalProperties": { "type": "string" } } } } } }
      }
    }
  }
}
"""#
}
