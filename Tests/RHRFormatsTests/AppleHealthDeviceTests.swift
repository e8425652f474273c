import RHRCore
@testable import RHRFormats
import Testing

@Suite("Apple Health device descriptions")
struct AppleHealthDeviceTests {
    @Test("Apple's description gives every field by name")
    func appleForm() {
        let device = AppleHealthDevice.parse(
            "<<HKDevice: 0x282a45810>, name:Apple Watch, manufacturer:Apple, model:Watch, hardware:Watch2,4, software:4.3.1>")
        #expect(device == Device(name: "Apple Watch", manufacturer: "Apple", model: "Watch", hardware: "Watch2,4", software: "4.3.1"))
    }

    @Test("fields are found by name in any order, with extra fields passed over")
    func anyOrder() {
        let device = AppleHealthDevice.parse(
            "<<HKDevice: 0x1>, model:Watch, localIdentifier:C5A4F1, software:9.1, name:Apple Watch, manufacturer:Apple Inc., hardware:Watch6,2>")
        #expect(device?.model == "Watch")
        #expect(device?.manufacturer == "Apple Inc.")
        #expect(device?.hardware == "Watch6,2")
        #expect(device?.software == "9.1")
        #expect(device?.name == "Apple Watch")
    }

    @Test("missing fields stay nil; an empty description is no device")
    func missingFields() {
        let device = AppleHealthDevice.parse("<<HKDevice: 0x1>, name:Oura Ring, manufacturer:Oura>")
        #expect(device == Device(name: "Oura Ring", manufacturer: "Oura"))
        #expect(AppleHealthDevice.parse("<<HKDevice: 0x1>>") == nil)
        #expect(AppleHealthDevice.parse("") == nil)
        #expect(AppleHealthDevice.parse("<<HKDevice: 0x1>, name:, model:>") == nil)
    }

    @Test("values keep commas and text that names no field; names keep emoji")
    func valuesWithCommas() {
        let device = AppleHealthDevice.parse("<<HKDevice: 0x1>, name:🕛🕐🕑🕒, the old one, model:Watch, hardware:Watch2,4>")
        #expect(device?.name == "🕛🕐🕑🕒, the old one")
        #expect(device?.hardware == "Watch2,4")
        #expect(device?.model == "Watch")
    }

    @Test("a description without the HKDevice prefix is still read by field name")
    func withoutPrefix() {
        #expect(AppleHealthDevice.parse("name:H10, manufacturer:Polar Electro Oy, model:H10")
            == Device(name: "H10", manufacturer: "Polar Electro Oy", model: "H10"))
    }
}
