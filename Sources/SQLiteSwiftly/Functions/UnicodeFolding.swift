import CSQLiteSwiftly
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The ready Unicode collations' comparison: an ASCII fast path, and folded keys for other texts.
enum UnicodeFolding {
    static func compare(_ first: UnsafeBufferPointer<UInt8>, _ second: UnsafeBufferPointer<UInt8>, accents: Bool)
        -> ComparisonResult
    {
        let common = min(first.count, second.count)
        var index = 0
        while index < common {
            let (left, right) = (first[index], second[index])
            if (left | right) >= 0x80 { return compareKeys(first, second, accents: accents) }
            let (foldedLeft, foldedRight) = (lowercase(left), lowercase(right))
            if foldedLeft != foldedRight {
                // A combining mark after either letter would change it: only plain ASCII letters decide here.
                let next =
                    (index + 1 < first.count ? first[index + 1] : 0)
                    | (index + 1 < second.count ? second[index + 1] : 0)
                if next >= 0x80 { return compareKeys(first, second, accents: accents) }
                return foldedLeft < foldedRight ? .orderedAscending : .orderedDescending
            }
            index += 1
        }
        if first.count == second.count { return .orderedSame }
        let longer = first.count > second.count ? first : second
        if longer[common] >= 0x80 { return compareKeys(first, second, accents: accents) }
        return first.count < second.count ? .orderedAscending : .orderedDescending
    }

    static func lowercase(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }

    static func compareKeys(_ first: UnsafeBufferPointer<UInt8>, _ second: UnsafeBufferPointer<UInt8>, accents: Bool)
        -> ComparisonResult
    {
        let (left, right) = (key(first, accents: accents), key(second, accents: accents))
        return left == right ? .orderedSame : left < right ? .orderedAscending : .orderedDescending
    }

    /// The text case-folded (and without accents): what the collations compare.
    static func key(_ bytes: UnsafeBufferPointer<UInt8>, accents: Bool) -> String {
        var key = String.UnicodeScalarView()
        for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
            if scalar.isASCII {
                key.append(Unicode.Scalar(lowercase(UInt8(scalar.value))))
                continue
            }
            // Default case folding keeps the dotless i, which uppercases to I.
            let folded = scalar == "\u{131}" ? String(scalar) : scalar.properties.uppercaseMapping.lowercased()
            for part in folded.unicodeScalars {
                if !accents {
                    key.append(part)
                } else if !isDiacritic(part) {
                    key.append(baseLetters[part] ?? part)
                }
            }
        }
        return String(key)
    }

    static func isDiacritic(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x300...0x36F, 0x1AB0...0x1AFF, 0x1DC0...0x1DFF, 0x20D0...0x20FF, 0xFE20...0xFE2F: true
        default: false
        }
    }

    /// Each letter whose canonical decomposition is a letter followed by combining diacritical marks, and that
    /// letter. Generated from Unicode's decomposition data; `CollationTests` checks it against Foundation's.
    static let baseLetters: [Unicode.Scalar: Unicode.Scalar] = {
        var map: [Unicode.Scalar: Unicode.Scalar] = [:]
        var scalars = decompositions.unicodeScalars.filter { $0 != "\n" }.makeIterator()
        while let letter = scalars.next(), let base = scalars.next() { map[letter] = base }
        return map
    }()

    /// Pairs of a precomposed letter and its base letter.
    static let decompositions = """
        ÀAÁAÂAÃAÄAÅAÇCÈEÉEÊEËEÌIÍIÎIÏIÑNÒOÓOÔOÕOÖOÙUÚUÛUÜUÝYàaáaâaãaäaåaçcèeéeêeëeìiíiîiïiñnòoóoôoõoöoùu
        úuûuüuýyÿyĀAāaĂAăaĄAąaĆCćcĈCĉcĊCċcČCčcĎDďdĒEēeĔEĕeĖEėeĘEęeĚEěeĜGĝgĞGğgĠGġgĢGģgĤHĥhĨIĩiĪIīiĬIĭiĮI
        įiİIĴJĵjĶKķkĹLĺlĻLļlĽLľlŃNńnŅNņnŇNňnŌOōoŎOŏoŐOőoŔRŕrŖRŗrŘRřrŚSśsŜSŝsŞSşsŠSšsŢTţtŤTťtŨUũuŪUūuŬUŭu
        ŮUůuŰUűuŲUųuŴWŵwŶYŷyŸYŹZźzŻZżzŽZžzƠOơoƯUưuǍAǎaǏIǐiǑOǒoǓUǔuǕUǖuǗUǘuǙUǚuǛUǜuǞAǟaǠAǡaǢÆǣæǦGǧgǨKǩkǪO
        ǫoǬOǭoǮƷǯʒǰjǴGǵgǸNǹnǺAǻaǼÆǽæǾØǿøȀAȁaȂAȃaȄEȅeȆEȇeȈIȉiȊIȋiȌOȍoȎOȏoȐRȑrȒRȓrȔUȕuȖUȗuȘSșsȚTțtȞHȟhȦAȧa
        ȨEȩeȪOȫoȬOȭoȮOȯoȰOȱoȲYȳyΆΑΈΕΉΗΊΙΌΟΎΥΏΩΐιΪΙΫΥάαέεήηίιΰυϊιϋυόούυώωϓϒϔϒЀЕЁЕЃГЇІЌКЍИЎУЙИйиѐеёеѓгїіќк
        ѝиўуѶѴѷѵӁЖӂжӐАӑаӒАӓаӖЕӗеӚӘӛәӜЖӝжӞЗӟзӢИӣиӤИӥиӦОӧоӪӨӫөӬЭӭэӮУӯуӰУӱуӲУӳуӴЧӵчӸЫӹыḀAḁaḂBḃbḄBḅbḆBḇbḈCḉc
        ḊDḋdḌDḍdḎDḏdḐDḑdḒDḓdḔEḕeḖEḗeḘEḙeḚEḛeḜEḝeḞFḟfḠGḡgḢHḣhḤHḥhḦHḧhḨHḩhḪHḫhḬIḭiḮIḯiḰKḱkḲKḳkḴKḵkḶLḷlḸLḹl
        ḺLḻlḼLḽlḾMḿmṀMṁmṂMṃmṄNṅnṆNṇnṈNṉnṊNṋnṌOṍoṎOṏoṐOṑoṒOṓoṔPṕpṖPṗpṘRṙrṚRṛrṜRṝrṞRṟrṠSṡsṢSṣsṤSṥsṦSṧsṨSṩs
        ṪTṫtṬTṭtṮTṯtṰTṱtṲUṳuṴUṵuṶUṷuṸUṹuṺUṻuṼVṽvṾVṿvẀWẁwẂWẃwẄWẅwẆWẇwẈWẉwẊXẋxẌXẍxẎYẏyẐZẑzẒZẓzẔZẕzẖhẗtẘwẙy
        ẛſẠAạaẢAảaẤAấaẦAầaẨAẩaẪAẫaẬAậaẮAắaẰAằaẲAẳaẴAẵaẶAặaẸEẹeẺEẻeẼEẽeẾEếeỀEềeỂEểeỄEễeỆEệeỈIỉiỊIịiỌOọoỎO
        ỏoỐOốoỒOồoỔOổoỖOỗoỘOộoỚOớoỜOờoỞOởoỠOỡoỢOợoỤUụuỦUủuỨUứuỪUừuỬUửuỮUữuỰUựuỲYỳyỴYỵyỶYỷyỸYỹyἀαἁαἂαἃαἄα
        ἅαἆαἇαἈΑἉΑἊΑἋΑἌΑἍΑἎΑἏΑἐεἑεἒεἓεἔεἕεἘΕἙΕἚΕἛΕἜΕἝΕἠηἡηἢηἣηἤηἥηἦηἧηἨΗἩΗἪΗἫΗἬΗἭΗἮΗἯΗἰιἱιἲιἳιἴιἵιἶιἷιἸΙ
        ἹΙἺΙἻΙἼΙἽΙἾΙἿΙὀοὁοὂοὃοὄοὅοὈΟὉΟὊΟὋΟὌΟὍΟὐυὑυὒυὓυὔυὕυὖυὗυὙΥὛΥὝΥὟΥὠωὡωὢωὣωὤωὥωὦωὧωὨΩὩΩὪΩὫΩὬΩὭΩὮΩὯΩὰα
        άαὲεέεὴηήηὶιίιὸοόοὺυύυὼωώωᾀαᾁαᾂαᾃαᾄαᾅαᾆαᾇαᾈΑᾉΑᾊΑᾋΑᾌΑᾍΑᾎΑᾏΑᾐηᾑηᾒηᾓηᾔηᾕηᾖηᾗηᾘΗᾙΗᾚΗᾛΗᾜΗᾝΗᾞΗᾟΗᾠωᾡωᾢω
        ᾣωᾤωᾥωᾦωᾧωᾨΩᾩΩᾪΩᾫΩᾬΩᾭΩᾮΩᾯΩᾰαᾱαᾲαᾳαᾴαᾶαᾷαᾸΑᾹΑᾺΑΆΑᾼΑῂηῃηῄηῆηῇηῈΕΈΕῊΗΉΗῌΗῐιῑιῒιΐιῖιῗιῘΙῙΙῚΙΊΙῠυῡυῢυ
        ΰυῤρῥρῦυῧυῨΥῩΥῪΥΎΥῬΡῲωῳωῴωῶωῷωῸΟΌΟῺΩΏΩῼΩÅA
        """
}
