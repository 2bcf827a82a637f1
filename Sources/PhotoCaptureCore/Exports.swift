// The value types of the imaging layer (PixelSize, Orientation, FramePixelFormat, RGBImage...)
// are part of this module's API; re-export them so importing the core is enough.
@_exported import Imaging
// The file layer (orienting, decoding and writing image files) is part of the API too: an app
// that writes photos or turns a user's files needs no second import.
@_exported import ImageFiles
