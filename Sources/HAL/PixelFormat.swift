/// How a framebuffer stores a pixel.
public enum PixelFormat: String, Sendable, Equatable {
    /// 16 bits: 5 red, 6 green, 5 blue (small SPI TFTs).
    case rgb565
    /// 32 bits: unused, red, green, blue (HDMI and most DRM framebuffers).
    case xrgb8888
    /// 1 bit per pixel, most significant bit first (memory-LCD and e-paper class displays).
    case mono

    public var bitsPerPixel: Int {
        switch self {
        case .rgb565: return 16
        case .xrgb8888: return 32
        case .mono: return 1
        }
    }
}
