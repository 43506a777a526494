#!/usr/bin/env bash
# Installs the Debian font packages of the fresh held-out font decks
# (benchmarks/vision_split.py FRESH_HELD_OUT; docs/vision.md, "A fresh held-out
# group: font decks"), which `in_shoe_bench.py --fresh` and `vision_fuse.py
# --fresh` read: fonts-urw-base35 (C059, P052, URW Bookman, URW Gothic, Nimbus
# Sans Narrow), fonts-noto-core (Noto Serif), fonts-open-sans (Open Sans) and
# fonts-crosextra-caladea (Caladea); librsvg2-bin draws their indices.
# The generic model never trains on them: build_generic_profile.py draws its
# TrueType faces from the DejaVu and Liberation fonts alone.
# Also installs kdegames-card-data-kf5, KDE's card decks: the third held-out
# group (vision_split.py KDE_HELD_OUT, read by `--kde`), never installed while
# anything was trained or tuned.
# And the npm card packages (pinned, into .cache/cards): the fourth held-out
# group (vision_split.py NPM_HELD_OUT, read by `--npm`).
# And the bitmap card packages (arcade 3.3.3 from PyPI, pokerth-data 1.1.2-2
# from Debian; pinned, checked by sha256, their card folders unpacked into
# .cache/cards): the fifth held-out group (vision_split.py BITMAP_HELD_OUT,
# read by `--bitmap`).
# And the training fonts of the twentieth pass's rank networks (TWENTIETH_FONTS,
# which the twenty-ninth pass trains on too) and of the eleventh pass's candidate model
# (build_generic_profile.py --more-fonts, vision_fontdeck.py MORE_FONT_FAMILIES;
# it stops if one is missing) and of the fifteenth pass's (--extra-rank-fonts,
# EXTRA_FONT_FAMILIES) and the kept-out typeface stress decks
# (benchmarks/vision_split.py FONT_STRESS), and the sixth held-out group's
# typefaces (vision_split.py TYPEFACE_HELD_OUT, read by `--typefaces`) and the
# seventh's (TYPEFACE2_HELD_OUT, `--typefaces2`), the eighth's
# (TYPEFACE3_HELD_OUT, `--typefaces3`), the ninth's (TYPEFACE4_HELD_OUT,
# `--typefaces4`), the tenth's (TYPEFACE5_HELD_OUT, `--typefaces5`), the
# eleventh's (TYPEFACE6_HELD_OUT, `--typefaces6`), the twelfth's
# (TYPEFACE7_HELD_OUT, `--typefaces7`), the thirteenth's
# (TYPEFACE8_HELD_OUT, `--typefaces8`), the fourteenth's (TYPEFACE9_HELD_OUT,
# `--typefaces9`), the fifteenth's (TYPEFACE10_HELD_OUT, `--typefaces10`), the
# sixteenth's (TYPEFACE11_HELD_OUT, `--typefaces11`), the seventeenth's
# (TYPEFACE12_HELD_OUT, `--typefaces12`), the eighteenth's
# (TYPEFACE13_HELD_OUT, `--typefaces13`), the nineteenth's
# (TYPEFACE14_HELD_OUT, `--typefaces14`), the twentieth's
# (TYPEFACE15_HELD_OUT, `--typefaces15`), the twenty-first's
# (TYPEFACE16_HELD_OUT, `--typefaces16`), the twenty-second's
# (TYPEFACE17_HELD_OUT, `--typefaces17`), the twenty-third's
# (TYPEFACE18_HELD_OUT, `--typefaces18`), the twenty-fourth's
# (TYPEFACE19_HELD_OUT, `--typefaces19`), the twenty-fifth's
# (TYPEFACE20_HELD_OUT, `--typefaces20`), the twenty-sixth's
# (TYPEFACE21_HELD_OUT, `--typefaces21`), the twenty-seventh's
# (TYPEFACE22_HELD_OUT, `--typefaces22`), the twenty-eighth's
# (TYPEFACE23_HELD_OUT, `--typefaces23`), the twenty-ninth's
# (TYPEFACE24_HELD_OUT, `--typefaces24`), the thirtieth's
# (TYPEFACE25_HELD_OUT, `--typefaces25`), the thirty-first's
# (TYPEFACE26_HELD_OUT, `--typefaces26`), the thirty-second's
# (TYPEFACE27_HELD_OUT, `--typefaces27`), the thirty-third's
# (TYPEFACE28_HELD_OUT, `--typefaces28`), the thirty-fourth's
# (TYPEFACE29_HELD_OUT, `--typefaces29`), the thirty-fifth's
# (TYPEFACE30_HELD_OUT, `--typefaces30`), the thirty-sixth's
# (TYPEFACE31_HELD_OUT, `--typefaces31`), the thirty-seventh's
# (TYPEFACE32_HELD_OUT, `--typefaces32`) and the thirty-eighth's
# (TYPEFACE33_HELD_OUT, `--typefaces33`): Google Fonts from the npm registry
# (pinned @expo-google-fonts packages, into .cache/fonts), their TrueType files
# copied into the user's font folder, where fontconfig finds them.
# Then lists the groups (a dry run: nothing is drawn or read).
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
[ -d /usr/share/fonts/opentype/urw-base35 ] || missing+=(fonts-urw-base35)
[ -f /usr/share/fonts/truetype/noto/NotoSerif-Regular.ttf ] || missing+=(fonts-noto-core)
[ -d /usr/share/fonts/truetype/open-sans ] || missing+=(fonts-open-sans)
[ -f /usr/share/fonts/truetype/crosextra/Caladea-Regular.ttf ] || missing+=(fonts-crosextra-caladea)
[ -d /usr/share/carddecks ] || missing+=(kdegames-card-data-kf5)  # KDE_HELD_OUT (--kde)
# family (as fc-list names it) and its package: training faces, FONT_STRESS, then
# the sixth to tenth held-out groups (TYPEFACE_HELD_OUT, TYPEFACE2_HELD_OUT,
# TYPEFACE3_HELD_OUT, TYPEFACE4_HELD_OUT, TYPEFACE5_HELD_OUT, TYPEFACE6_HELD_OUT, TYPEFACE7_HELD_OUT, TYPEFACE8_HELD_OUT, TYPEFACE9_HELD_OUT, TYPEFACE10_HELD_OUT, TYPEFACE11_HELD_OUT, TYPEFACE12_HELD_OUT, TYPEFACE13_HELD_OUT, TYPEFACE14_HELD_OUT, TYPEFACE15_HELD_OUT, TYPEFACE16_HELD_OUT)
for pair in "Yanone Kaffeesatz:fonts-yanone-kaffeesatz" "PT Sans Narrow:fonts-paratype" "PT Serif:fonts-paratype" \
        "Roboto Condensed:fonts-roboto-unhinted" "Dosis:fonts-dosis" \
        "Linux Libertine O:fonts-linuxlibertine" "EB Garamond:fonts-ebgaramond" \
        "Gentium Plus:fonts-sil-gentiumplus" "Roboto Slab:fonts-roboto-slab" \
        "Lato:fonts-lato" "Cantarell:fonts-cantarell" "Go:fonts-go" \
        "Comfortaa:fonts-comfortaa" "Cabin:fonts-cabin" \
        "League Mono Condensed:fonts-league-mono" "League Mono Narrow:fonts-league-mono" \
        "osifont:fonts-osifont" "Karla:fonts-karla" "Quicksand:fonts-quicksand" \
        "Play:fonts-play" "Courier Prime:fonts-courier-prime" \
        "Anonymous Pro:fonts-anonymous-pro" \
        "Bebas Neue:fonts-bebas-neue" "Gillius ADF No2 Cond:fonts-adf-gillius" \
        "Jura:fonts-jura" "Vollkorn:fonts-vollkorn" \
        "CMU Serif:fonts-cmu" "Old Standard TT:fonts-oldstandard" \
        "Junicode Two Beta:fonts-junicode" "League Spartan:fonts-league-spartan" \
        "Manrope:fonts-manrope" "Andika:fonts-sil-andika" "B612:fonts-b612" \
        "JetBrains Mono:fonts-jetbrains-mono" \
        "Inter:fonts-inter" "Charis SIL:fonts-sil-charis" "Fira Code:fonts-firacode" \
        "Quattrocento:fonts-quattrocento" "Clear Sans:fonts-clear-sans" \
        "Tiresias Signfont:fonts-tiresias" "GFS Didot:fonts-gfs-didot" \
        "OSP-DIN:fonts-opendin" \
        "Oxygen-Sans:fonts-oxygen" "Junction:fonts-junction" "Roadgeek 2014 Series C:fonts-roadgeek" \
        "Cardo:fonts-cardo" "Yrsa:fonts-yrsa-rasa" "Comic Neue:fonts-comic-neue" \
        "Tuffy:fonts-tuffy" "Baskervald ADF Std:fonts-adf-baskervald" \
        "Accanthis ADF Std:fonts-adf-accanthis" "Libris ADF Std:fonts-adf-libris" \
        "Universalis ADF Std:fonts-adf-universalis" "Irianis ADF Std:fonts-adf-irianis" \
        "Prociono:fonts-prociono" "GFS Neohellenic:fonts-gfs-neohellenic" \
        "BetecknaGSCondensed:fonts-beteckna" "Berenis ADF Pro:fonts-adf-berenis" \
        "Tribun ADF Std:fonts-adf-tribun" "Fanwood Text:fonts-fanwood" \
        "Goudy Bookletter 1911:fonts-goudybookletter" "Verana Sans:fonts-adf-verana" \
        "Romande ADF Std:fonts-adf-romande" "Averia Sans GWF:fonts-averia-sans-gwf" \
        "mononoki:fonts-mononoki" "Ikarius ADF Std:fonts-adf-ikarius" \
        "Oldania ADF Std:fonts-adf-oldania" "ElstobD:fonts-elstob" \
        "Linden Hill:fonts-lindenhill" "OCR B:fonts-ocr-b" "Monoid:fonts-monoid" \
        "Fantasque Sans Mono:fonts-fantasque-sans" "OpenDyslexic:fonts-opendyslexic" \
        "Humor Sans:fonts-humor-sans" \
        "Dustismo:fonts-dustin" "Dustismo Roman:fonts-dustin" \
        "Mekanus ADF Std:fonts-adf-mekanus" "Solothurn:fonts-adf-solothurn" \
        "Essays1743:fonts-essays1743" \
        "Hermit:fonts-hermit" "monofur:fonts-monofur" "Cherry Bomb:fonts-cherrybomb" \
        "Breip:fonts-breip" "Delphine:fonts-sjfonts" "TypoScript:fonts-levien-typoscript" \
        "MPH 2B Damase:fonts-mph-2b-damase" "Quercus:fonts-linex" "Inconsolata:fonts-inconsolata" "IBM 3270:fonts-3270" \
        "Agave:fonts-agave" \
        "Berenika:fonts-klaudia-berenika" "UnBatang:fonts-unfonts-core" "Arapey:fonts-arapey" \
        "NanumGothic:fonts-nanum" "BIZ UDGothic:fonts-morisawa-bizud-gothic" \
        "M PLUS 1:fonts-mplus" "Garuda:fonts-tlwg-garuda-ttf" "okolaks:fonts-okolaks" \
        "IPAMincho:fonts-ipafont-mincho" "Baekmuk Batang:fonts-baekmuk" \
        "GNUTypewriter:fonts-gnutypewriter" "Sawarabi Gothic:fonts-sawarabi-gothic" \
        "Manjari:fonts-smc-manjari" "Gayathri:fonts-smc-gayathri" \
        "Gemunu Libre:fonts-gemunu-libre" "Meera Inimai:fonts-meera-inimai" \
        "Klee One:fonts-klee" "MotoyaLMaru:fonts-motoya-l-maruberi" "Uroob:fonts-smc-uroob" \
        "AR PL UMing CN:fonts-arphic-uming" "Dyuthi:fonts-smc-dyuthi" \
        "BM DoHyeon:fonts-woowa-bm" "Oradano-mincho-GSRR:fonts-oradano-mincho-gsrr" \
        "cwTeXHeiBold:fonts-cwtex-heib" \
        "Kinnari:fonts-tlwg-kinnari-ttf" "D2Coding:fonts-naver-d2coding" \
        "Radis Sans:fonts-radisnoir" "Solide Mirage:fonts-solide-mirage" \
        "Apropal:fonts-apropal" "RocknRoll One:fonts-rocknroll" "Konatu:fonts-konatu" \
        "TriodPostnaja:fonts-triod-postnaja" \
        "Millimetre:fonts-millimetre" "Blankenburg_UNZ1A:fonts-blankenburg" \
        "Campania:fonts-campania" "DkgHandwriting:fonts-dkg-handwriting" "Stick:fonts-stick" \
        "Yusei Magic:fonts-yusei-magic" "Havana:fonts-havana" "Reggae One:fonts-reggae" \
        "Crystal:fonts-povray" "GFS Theokritos:fonts-gfs-theokritos" \
        "IM FELL DW Pica:fonts-cegui" "KouzanBrushFont:fonts-kouzan-mouhitsu" \
        "DSEG14 Classic:fonts-dseg" "Jekyll BRK:fonts-aenigma" "Larkspur BRK:fonts-aenigma" \
        "Aegean:fonts-ancient-scripts" \
        "Fantasma:fonts-fantasma" "Purisa:fonts-tlwg-purisa-ttf" "Jessen:fonts-gotico-antiqua" \
        "Nanum Brush Script:fonts-nanum-extra" "UnPilgi:fonts-unfonts-core" \
        "Gidugu:fonts-teluguvijayam" \
        "Ferrite Core DX:fonts-ferrite-core" "BabelStone Modern:fonts-babelstone-modern" \
        "YOzS:fonts-yozvox-yozfont-standard-kana" "Because We Learn:fonts-bwht" \
        "Because We Build:fonts-bwht" "Unifont:fonts-unifont" "MisakiGothic:fonts-misaki" \
        "eurofurence:fonts-eurofurence" "Routed Gothic:fonts-routed-gothic" \
        "Caslon:fonts-georgewilliams" "Cupola:fonts-georgewilliams" \
        "GWMonospace:fonts-georgewilliams" "STIXGeneral:fonts-stix" \
        "Isabella:fonts-isabella" "femkeklaver:fonts-femkeklaver" \
        "Ecolier_court:fonts-ecolier-court" "Tomson Talks:fonts-tomsontalks" \
        "Dancing Script:fonts-dancingscript" "Kaushan Script:fonts-kaushanscript" \
        "StayPuft:fonts-staypuft" "Rufscript:fonts-rufscript" "Le Murmure:fonts-le-murmure" \
        "Compagnon:fonts-compagnon" "Lemonada:fonts-lemonada" \
        "GFS Artemisia:fonts-gfs-artemisia" "Summersby:fonts-summersby" \
        "Train One:fonts-train" "Leckerli One:fonts-leckerli-one" \
        "National Park:fonts-national-park" "Engadget:fonts-engadget"; do
    command -v fc-list >/dev/null && fc-list -q ":family=${pair%%:*}" || missing+=("${pair#*:}")
done
command -v rsvg-convert >/dev/null || missing+=(librsvg2-bin)
command -v fc-list >/dev/null || missing+=(fontconfig)
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ]; then
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
    else
        echo "missing Debian packages (run as root to install): ${missing[*]}" >&2
        exit 1
    fi
fi

command -v npm >/dev/null || { echo "missing npm (as root: apt-get install nodejs npm)" >&2; exit 1; }
npm install --silent --no-audit --no-fund --prefix .cache/cards \
    cardsJS@1.1.1 svg-cards@4.0.2 @heruka_urgyen/react-playing-cards@0.5.0 \
    @younestouati/playing-cards-standard-deck@3.0.0 deck-of-cards@0.1.8  # NPM_HELD_OUT (--npm)

# the twenty-second to thirty-eighth groups' faces (TYPEFACE17_HELD_OUT,
# --typefaces17; TYPEFACE18_HELD_OUT, --typefaces18; TYPEFACE19_HELD_OUT,
# --typefaces19; TYPEFACE20_HELD_OUT, --typefaces20; TYPEFACE21_HELD_OUT,
# --typefaces21; TYPEFACE22_HELD_OUT, --typefaces22; TYPEFACE23_HELD_OUT,
# --typefaces23; TYPEFACE24_HELD_OUT, --typefaces24; TYPEFACE25_HELD_OUT,
# --typefaces25; TYPEFACE26_HELD_OUT, --typefaces26; TYPEFACE27_HELD_OUT,
# --typefaces27; TYPEFACE28_HELD_OUT, --typefaces28; TYPEFACE29_HELD_OUT,
# --typefaces29; TYPEFACE30_HELD_OUT, --typefaces30; TYPEFACE31_HELD_OUT,
# --typefaces31; TYPEFACE32_HELD_OUT, --typefaces32; TYPEFACE33_HELD_OUT,
# --typefaces33): Google
# Fonts from npm, pinned; family:npm:package@version, as FONT_PACKAGES names them
npm_fonts=("Merriweather:npm:@expo-google-fonts/merriweather@0.4.2"
           "Zilla Slab:npm:@expo-google-fonts/zilla-slab@0.4.1"
           "Archivo Black:npm:@expo-google-fonts/archivo-black@0.4.1"
           "Josefin Sans:npm:@expo-google-fonts/josefin-sans@0.4.2"
           "Cinzel:npm:@expo-google-fonts/cinzel@0.4.2"
           "Caveat:npm:@expo-google-fonts/caveat@0.4.2"
           "Amatic SC:npm:@expo-google-fonts/amatic-sc@0.4.2"
           "Bangers:npm:@expo-google-fonts/bangers@0.4.1"
           "Orbitron:npm:@expo-google-fonts/orbitron@0.4.2"
           "Indie Flower:npm:@expo-google-fonts/indie-flower@0.4.1"
           "Black Ops One:npm:@expo-google-fonts/black-ops-one@0.4.1"
           "Press Start 2P:npm:@expo-google-fonts/press-start-2p@0.4.1"
           "Lora:npm:@expo-google-fonts/lora@0.4.2"
           "Kalam:npm:@expo-google-fonts/kalam@0.4.1"
           "Alfa Slab One:npm:@expo-google-fonts/alfa-slab-one@0.4.1"
           "Poiret One:npm:@expo-google-fonts/poiret-one@0.4.1"
           "Uncial Antiqua:npm:@expo-google-fonts/uncial-antiqua@0.4.1"
           "Bungee:npm:@expo-google-fonts/bungee@0.4.1"
           "Gloria Hallelujah:npm:@expo-google-fonts/gloria-hallelujah@0.4.1"
           "Limelight:npm:@expo-google-fonts/limelight@0.4.1"
           "Syncopate:npm:@expo-google-fonts/syncopate@0.4.1"
           "Varela Round:npm:@expo-google-fonts/varela-round@0.4.1"
           "Inknut Antiqua:npm:@expo-google-fonts/inknut-antiqua@0.4.1"
           "Righteous:npm:@expo-google-fonts/righteous@0.4.1"
           "Knewave:npm:@expo-google-fonts/knewave@0.4.1"
           "Unbounded:npm:@expo-google-fonts/unbounded@0.4.1"
           "Chicle:npm:@expo-google-fonts/chicle@0.4.1"
           "Trade Winds:npm:@expo-google-fonts/trade-winds@0.4.1"
           "Tenor Sans:npm:@expo-google-fonts/tenor-sans@0.4.1"
           "Spectral:npm:@expo-google-fonts/spectral@0.4.1"
           "Courgette:npm:@expo-google-fonts/courgette@0.4.1"
           "Lilita One:npm:@expo-google-fonts/lilita-one@0.4.1"
           "Instrument Serif:npm:@expo-google-fonts/instrument-serif@0.4.1"
           "Shrikhand:npm:@expo-google-fonts/shrikhand@0.4.1"
           "Kanit:npm:@expo-google-fonts/kanit@0.4.1"
           "Finger Paint:npm:@expo-google-fonts/finger-paint@0.4.1"
           "Henny Penny:npm:@expo-google-fonts/henny-penny@0.4.1"
           "Stalinist One:npm:@expo-google-fonts/stalinist-one@0.4.1"
           "Potta One:npm:@expo-google-fonts/potta-one@0.4.1"
           "Londrina Solid:npm:@expo-google-fonts/londrina-solid@0.4.1"
           "Macondo:npm:@expo-google-fonts/macondo@0.4.1"
           "Hachi Maru Pop:npm:@expo-google-fonts/hachi-maru-pop@0.4.1"
           "Fredericka the Great:npm:@expo-google-fonts/fredericka-the-great@0.4.1"
           "Mountains of Christmas:npm:@expo-google-fonts/mountains-of-christmas@0.4.1"
           "Reenie Beanie:npm:@expo-google-fonts/reenie-beanie@0.4.1"
           "Metal Mania:npm:@expo-google-fonts/metal-mania@0.4.1"
           "Butcherman:npm:@expo-google-fonts/butcherman@0.4.1"
           "Cherry Cream Soda:npm:@expo-google-fonts/cherry-cream-soda@0.4.0"
           "Akronim:npm:@expo-google-fonts/akronim@0.4.0"
           "Domine:npm:@expo-google-fonts/domine@0.4.2"
           "Carter One:npm:@expo-google-fonts/carter-one@0.4.1"
           "Chango:npm:@expo-google-fonts/chango@0.4.1"
           "Faster One:npm:@expo-google-fonts/faster-one@0.4.1"
           "Homemade Apple:npm:@expo-google-fonts/homemade-apple@0.4.1"
           "Black Han Sans:npm:@expo-google-fonts/black-han-sans@0.4.1"
           "Emilys Candy:npm:@expo-google-fonts/emilys-candy@0.4.1"
           "Anton:npm:@expo-google-fonts/anton@0.4.2"
           "Staatliches:npm:@expo-google-fonts/staatliches@0.4.1"
           "Fredoka:npm:@expo-google-fonts/fredoka@0.4.1"
           "Wallpoet:npm:@expo-google-fonts/wallpoet@0.4.1"
           "Satisfy:npm:@expo-google-fonts/satisfy@0.4.1"
           "Bevan:npm:@expo-google-fonts/bevan@0.4.2"
           "VT323:npm:@expo-google-fonts/vt323@0.4.1"
           "Syne:npm:@expo-google-fonts/syne@0.4.2"
           "Philosopher:npm:@expo-google-fonts/philosopher@0.4.1"
           "Ranchers:npm:@expo-google-fonts/ranchers@0.4.1"
           "Jacques Francois Shadow:npm:@expo-google-fonts/jacques-francois-shadow@0.4.1"
           "Rakkas:npm:@expo-google-fonts/rakkas@0.4.1"
           "Sedgwick Ave Display:npm:@expo-google-fonts/sedgwick-ave-display@0.4.1"
           "Bakbak One:npm:@expo-google-fonts/bakbak-one@0.4.1"
           "Bricolage Grotesque:npm:@expo-google-fonts/bricolage-grotesque@0.4.1"
           "Suez One:npm:@expo-google-fonts/suez-one@0.4.1"
           "Akaya Kanadaka:npm:@expo-google-fonts/akaya-kanadaka@0.4.1"
           "Agbalumo:npm:@expo-google-fonts/agbalumo@0.4.1"
           "Kings:npm:@expo-google-fonts/kings@0.4.2"
           "Dokdo:npm:@expo-google-fonts/dokdo@0.4.1"
           "Risque:npm:@expo-google-fonts/risque@0.4.1"
           "Playball:npm:@expo-google-fonts/playball@0.4.2"
           "Caudex:npm:@expo-google-fonts/caudex@0.4.1"
           "Sansita:npm:@expo-google-fonts/sansita@0.4.1"
           "Darumadrop One:npm:@expo-google-fonts/darumadrop-one@0.4.2"
           "Zen Kurenaido:npm:@expo-google-fonts/zen-kurenaido@0.4.1"
           "Modak:npm:@expo-google-fonts/modak@0.4.1"
           "Slackside One:npm:@expo-google-fonts/slackside-one@0.4.2"
           "Bowlby One:npm:@expo-google-fonts/bowlby-one@0.4.1"
           "Sarina:npm:@expo-google-fonts/sarina@0.4.1"
           "Oleo Script:npm:@expo-google-fonts/oleo-script@0.4.1"
           "Sofia:npm:@expo-google-fonts/sofia@0.4.1"
           "Trochut:npm:@expo-google-fonts/trochut@0.4.1"
           "Changa:npm:@expo-google-fonts/changa@0.4.2"
           "Merienda:npm:@expo-google-fonts/merienda@0.4.2"
           "Ultra:npm:@expo-google-fonts/ultra@0.4.0"
           "Fruktur:npm:@expo-google-fonts/fruktur@0.4.1"
           "Iceland:npm:@expo-google-fonts/iceland@0.4.0"
           "Just Another Hand:npm:@expo-google-fonts/just-another-hand@0.4.1"
           "Euphoria Script:npm:@expo-google-fonts/euphoria-script@0.4.1"
           "Coiny:npm:@expo-google-fonts/coiny@0.4.1"
           "Racing Sans One:npm:@expo-google-fonts/racing-sans-one@0.4.1"
           "Niconne:npm:@expo-google-fonts/niconne@0.4.1"
           "Sue Ellen Francisco:npm:@expo-google-fonts/sue-ellen-francisco@0.4.1"
           "Keania One:npm:@expo-google-fonts/keania-one@0.4.0"
           "Eagle Lake:npm:@expo-google-fonts/eagle-lake@0.4.0"
           "Smythe:npm:@expo-google-fonts/smythe@0.4.1"
           "Offside:npm:@expo-google-fonts/offside@0.4.2"
           "Nerko One:npm:@expo-google-fonts/nerko-one@0.4.1"
           "Jim Nightshade:npm:@expo-google-fonts/jim-nightshade@0.4.1"
           "Oldenburg:npm:@expo-google-fonts/oldenburg@0.4.1"
           "Devonshire:npm:@expo-google-fonts/devonshire@0.4.1"
           "Joti One:npm:@expo-google-fonts/joti-one@0.4.1"
           "Passero One:npm:@expo-google-fonts/passero-one@0.4.1"
           "Sofadi One:npm:@expo-google-fonts/sofadi-one@0.4.1"
           "Flavors:npm:@expo-google-fonts/flavors@0.4.1"
           "Italiana:npm:@expo-google-fonts/italiana@0.4.1"
           "Lancelot:npm:@expo-google-fonts/lancelot@0.4.1"
           "Milonga:npm:@expo-google-fonts/milonga@0.4.1"
           "Marko One:npm:@expo-google-fonts/marko-one@0.4.1"
           "Mr Dafoe:npm:@expo-google-fonts/mr-dafoe@0.4.1"
           "Caesar Dressing:npm:@expo-google-fonts/caesar-dressing@0.2.2"
           "Ruslan Display:npm:@expo-google-fonts/ruslan-display@0.2.3")
specs=()
for pair in "${npm_fonts[@]}"; do specs+=("${pair#*:npm:}"); done
npm install --silent --no-audit --no-fund --prefix .cache/fonts "${specs[@]}"
font_dir="${XDG_DATA_HOME:-$HOME/.local/share}/fonts/pontoon-bench"
mkdir -p "$font_dir"
for spec in "${specs[@]}"; do
    find ".cache/fonts/node_modules/${spec%@*}" -name '*.ttf' -exec cp {} "$font_dir/" \;
done
fc-cache -f "$font_dir" >/dev/null
for pair in "${npm_fonts[@]}"; do
    fc-list -q ":family=${pair%%:*}" || { echo "font ${pair%%:*} not found in $font_dir" >&2; exit 1; }
done

[ -x .venv/bin/python ] || { echo "no .venv: run scripts/test.sh first" >&2; exit 1; }
.venv/bin/python -m hardware_sim.cards.bitmapdeck install --prefix .cache/cards  # --bitmap
PYTHONPATH=. .venv/bin/python benchmarks/in_shoe_bench.py --fresh --dry-run
PYTHONPATH=. .venv/bin/python benchmarks/in_shoe_bench.py --kde --dry-run
PYTHONPATH=. .venv/bin/python benchmarks/in_shoe_bench.py --npm --dry-run
PYTHONPATH=. .venv/bin/python benchmarks/in_shoe_bench.py --bitmap --dry-run
PYTHONPATH=. .venv/bin/python benchmarks/in_shoe_bench.py --typefaces --dry-run
PYTHONPATH=. .venv/bin/python benchmarks/in_shoe_bench.py --typefaces17 --dry-run
PYTHONPATH=. .venv/bin/python benchmarks/in_shoe_bench.py --typefaces18 --dry-run
PYTHONPATH=. .venv/bin/python benchmarks/in_shoe_bench.py --typefaces19 --dry-run
PYTHONPATH=. .venv/bin/python benchmarks/in_shoe_bench.py --typefaces20 --dry-run
PYTHONPATH=. .venv/bin/python benchmarks/in_shoe_bench.py --typefaces21 --dry-run
PYTHONPATH=. .venv/bin/python benchmarks/in_shoe_bench.py --typefaces22 --dry-run
PYTHONPATH=. .venv/bin/python benchmarks/in_shoe_bench.py --typefaces23 --dry-run
