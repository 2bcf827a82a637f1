/// The API's OpenAPI 3.1 document, served at `/openapi.json`.
enum OpenAPIDocument {
    static let json = #"""
{
  "openapi": "3.1.0",
  "info": {
    "title": "photocap serve",
    "version": "1",
    "description": "Still photos from the camera photocap serve runs. Off loopback every request carries the server's token: X-Photocap-Token header (or Authorization: Bearer), or ?token= on a GET. A POST sends Content-Type: application/json. Errors are {\"error\": sentence}; refused settings get the sentence photocap shoot prints."
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
          "200": { "description": "The frame; X-Frame-Sequence names it", "content": { "image/png": {} } },
          "503": { "$ref": "#/components/responses/Error" }
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
