/// The checksums the containers use to tell a complete frame or page from a cut or damaged one.
enum Checksums {
    /// FLAC's frame-header CRC-8 (polynomial x^8 + x^2 + x + 1, initial 0).
    static func crc8<C: Collection<UInt8>>(_ bytes: C) -> UInt8 {
        var crc: UInt8 = 0
        for byte in bytes {
            crc ^= byte
            for _ in 0..<8 { crc = crc & 0x80 != 0 ? (crc << 1) ^ 0x07 : crc << 1 }
        }
        return crc
    }

    /// FLAC's whole-frame CRC-16 (polynomial x^16 + x^15 + x^2 + 1, initial 0), by table.
    static func crc16<C: Collection<UInt8>>(_ bytes: C) -> UInt16 {
        var crc: UInt16 = 0
        for byte in bytes { crc = (crc << 8) ^ crc16Table[Int(UInt8(truncatingIfNeeded: crc >> 8) ^ byte)] }
        return crc
    }

    /// Ogg's page CRC-32 (polynomial 0x04C11DB7, not reflected, initial 0), by table.
    static func crc32Ogg<C: Collection<UInt8>>(_ bytes: C) -> UInt32 {
        var crc: UInt32 = 0
        for byte in bytes { crc = (crc << 8) ^ crc32Table[Int(UInt8(truncatingIfNeeded: crc >> 24) ^ byte)] }
        return crc
    }

    private static let crc16Table: [UInt16] = (0..<256).map { index in
        var crc = UInt16(index) << 8
        for _ in 0..<8 { crc = crc & 0x8000 != 0 ? (crc << 1) ^ 0x8005 : crc << 1 }
        return crc
    }

    private static let crc32Table: [UInt32] = (0..<256).map { index in
        var crc = UInt32(index) << 24
        for _ in 0..<8 { crc = crc & 0x8000_0000 != 0 ? (crc << 1) ^ 0x04C1_1DB7 : crc << 1 }
        return crc
    }
}
