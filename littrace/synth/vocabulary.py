"""Word lists for the synthetic corpus: research topics, method-name parts, people, concepts.

Everything a synthetic paper says is drawn from these lists with a seeded ``random.Random``,
so the same seed always writes the same papers. All strings are Latin-1, because the PDF
standard fonts (Times, Helvetica) cannot show other characters.

Example:
    >>> TOPICS[0].task
    'multi-hop question answering'
    >>> len(METHOD_PREFIXES) * len(METHOD_SUFFIXES) > 400
    True
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Topic:
    """A research area a line of work belongs to, with its benchmarks and headline metric."""

    task: str
    short: str
    datasets: tuple[str, ...]
    metric: str
    unit: str
    higher_is_better: bool
    value_range: tuple[float, float]
    baselines: tuple[str, ...]
    objects: str


TOPICS: tuple[Topic, ...] = (
    Topic(
        "multi-hop question answering",
        "multi-hop QA",
        ("SynthQA-7", "HopBench", "WikiChain-2", "TriviaLoop", "BridgeQA"),
        "exact match",
        "%",
        True,
        (38.0, 72.0),
        ("RetroReader", "ChainRAG", "FiD-Lite", "HopNet"),
        "question-passage pairs",
    ),
    Topic(
        "long-document summarization",
        "summarization",
        ("LongSum-4K", "GovDocs-S", "ArxSumm", "PatentBrief", "MeetRecap"),
        "ROUGE-L",
        "",
        True,
        (24.0, 46.0),
        ("LongT5-S", "SlideSum", "HierBART", "PegaLite"),
        "documents",
    ),
    Topic(
        "image classification under distribution shift",
        "robust classification",
        ("ShiftNet-200", "PixMix-C", "OfficeSynth", "DomainGrid", "CorruptBench"),
        "top-1 accuracy",
        "%",
        True,
        (55.0, 88.0),
        ("ResNet-50", "ViT-S", "AugMixNet", "DeiT-Lite"),
        "images",
    ),
    Topic(
        "semantic segmentation",
        "segmentation",
        ("CitySynth", "ADE-Syn", "PascalGrid", "UrbanScenes", "IndoorSeg"),
        "mIoU",
        "%",
        True,
        (40.0, 78.0),
        ("DeepLab-S", "SegMixer", "MaskNet", "UPerLite"),
        "images",
    ),
    Topic(
        "open-vocabulary object detection",
        "detection",
        ("COCO-Synth", "DetBench-5", "LVIS-Lite", "AerialDet", "RetailBoxes"),
        "AP",
        "",
        True,
        (28.0, 58.0),
        ("FasterDet", "DETR-S", "YOLO-Lite", "GLIP-S"),
        "images",
    ),
    Topic(
        "low-resource machine translation",
        "translation",
        ("FloresLite", "WMT-Syn", "TaliBench", "OPUS-Mini", "NusaMT"),
        "BLEU",
        "",
        True,
        (12.0, 38.0),
        ("mBART-S", "NLLB-Lite", "TransBase", "M2M-Small"),
        "sentence pairs",
    ),
    Topic(
        "code generation",
        "code generation",
        ("CodeEval-S", "PyTasks-3", "RepoBench-L", "SQLSynth", "FuncSet"),
        "pass@1",
        "%",
        True,
        (20.0, 68.0),
        ("CodeGen-S", "StarLite", "SantaBase", "PolyCoder-S"),
        "programming problems",
    ),
    Topic(
        "mathematical reasoning",
        "math reasoning",
        ("MathSynth-8K", "GSM-Lite", "ProofSteps", "AlgebraQA", "OlymBench"),
        "accuracy",
        "%",
        True,
        (30.0, 84.0),
        ("CoT-Base", "PAL-S", "MathLM-7", "ToRA-Lite"),
        "problems",
    ),
    Topic(
        "text-to-image generation",
        "image generation",
        ("GenSynth", "PromptBench-I", "ArtCaps", "SceneGen-2", "DrawBench-S"),
        "FID",
        "",
        False,
        (4.0, 28.0),
        ("LDM-S", "GigaGen", "PixArt-Lite", "DiT-B"),
        "prompts",
    ),
    Topic(
        "speech recognition",
        "speech recognition",
        ("LibriSynth", "VoxTalk", "CallCenter-S", "AccentMix", "FarField-2"),
        "word error rate",
        "%",
        False,
        (3.0, 24.0),
        ("Conformer-S", "Wav2Lite", "WhisperBase", "RNNT-S"),
        "utterances",
    ),
    Topic(
        "dense passage retrieval",
        "retrieval",
        ("MSMini", "BEIR-Lite", "SciDocs-S", "NQ-Synth", "FiQA-2"),
        "nDCG@10",
        "",
        True,
        (22.0, 62.0),
        ("BM25", "DPR-S", "ColBERT-Lite", "Contriever-S"),
        "queries",
    ),
    Topic(
        "video question answering",
        "video QA",
        ("ClipQA", "EgoSynth", "MovieMCQ", "NextVid", "ActQA"),
        "accuracy",
        "%",
        True,
        (35.0, 74.0),
        ("VideoBERT-S", "FrozenBiLM", "MIST-Lite", "SeViLA-S"),
        "clips",
    ),
    Topic(
        "3D point cloud classification",
        "point cloud classification",
        ("ModelSynth-40", "ScanObj-S", "ShapeGrid", "PartNet-Lite", "LidarCls"),
        "overall accuracy",
        "%",
        True,
        (78.0, 95.0),
        ("PointNet-S", "DGCNN-Lite", "PointMLP", "PCT-S"),
        "point clouds",
    ),
    Topic(
        "preference optimization for language models",
        "alignment",
        ("AlpacaSynth", "ArenaLite", "MT-Syn", "HelpSteer-S", "SafeChat"),
        "win rate",
        "%",
        True,
        (12.0, 60.0),
        ("SFT-Base", "DPO", "IPO-S", "KTO-Lite"),
        "preference pairs",
    ),
    Topic(
        "graph node classification",
        "node classification",
        ("CoraSynth", "OGB-Lite", "CiteGrid", "AmazonCo-S", "SocialNet-5"),
        "accuracy",
        "%",
        True,
        (60.0, 90.0),
        ("GCN", "GAT-S", "GraphSAGE-Lite", "APPNP-S"),
        "nodes",
    ),
    Topic(
        "time-series forecasting",
        "forecasting",
        ("ETTSynth", "TrafficGrid", "WeatherLite", "ElecLoad-S", "SolarSeq"),
        "MSE",
        "",
        False,
        (0.2, 0.9),
        ("Informer-S", "PatchTST-Lite", "DLinear", "TimesNet-S"),
        "series",
    ),
)

VENUES: tuple[str, ...] = ("ACL", "EMNLP", "NeurIPS", "ICLR", "CVPR", "ICCV")
# Running headers as the real proceedings print them.
VENUE_HEADERS: dict[str, str] = {
    "ACL": "Proceedings of the 63rd Annual Meeting of the ACL ({year})",
    "EMNLP": "Findings of EMNLP {year}",
    "NeurIPS": "Conference on Neural Information Processing Systems (NeurIPS {year})",
    "ICLR": "Published as a conference paper at ICLR {year}",
    "CVPR": "CVPR {year} Open Access Paper",
    "ICCV": "ICCV {year} Open Access Paper",
}

METHOD_PREFIXES: tuple[str, ...] = (
    "Graph",
    "Token",
    "Flow",
    "Sparse",
    "Latent",
    "Prompt",
    "Route",
    "Scale",
    "Fuse",
    "Meta",
    "Chain",
    "Retro",
    "Vista",
    "Depth",
    "Pixel",
    "Logic",
    "Memo",
    "Cross",
    "Hyper",
    "Quant",
    "Span",
    "Lexi",
    "Tempo",
    "Echo",
)
METHOD_SUFFIXES: tuple[str, ...] = (
    "Mixer",
    "Weaver",
    "Former",
    "Distill",
    "Bridge",
    "Lens",
    "Forge",
    "Pilot",
    "Sieve",
    "Prism",
    "Scope",
    "Loom",
    "Stitch",
    "Tune",
    "Router",
    "Anchor",
    "Relay",
    "Shift",
)

# Gerund phrases that finish a title ("GraphMixer: <phrase> for <task>") and describe the
# method in questions.
METHOD_PHRASES: tuple[str, ...] = (
    "Mixing Structured Tokens",
    "Routing Evidence through Sparse Experts",
    "Distilling Latent Plans",
    "Anchoring Representations with Prototypes",
    "Weaving Local and Global Context",
    "Scaling Test-Time Search",
    "Calibrating Uncertainty with Ensembles",
    "Pruning Redundant Tokens",
    "Aligning Modalities with Contrastive Bridges",
    "Learning Hierarchical Memories",
    "Refining Predictions with Iterative Feedback",
    "Compressing Context with Learned Summaries",
    "Regularizing Attention with Priors",
    "Adapting Low-Rank Experts",
    "Sampling Hard Negatives Progressively",
    "Stitching Pretrained Modules",
)

COMPONENTS: tuple[str, ...] = (
    "token mixer",
    "sparse router",
    "prototype bank",
    "alignment head",
    "context compressor",
    "uncertainty gate",
    "memory reader",
    "plan decoder",
    "feature pyramid",
    "adapter stack",
    "consistency filter",
    "relevance scorer",
    "query encoder",
    "fusion block",
)

FIRST_NAMES: tuple[str, ...] = (
    "Jonas",
    "Mira",
    "Kai",
    "Lena",
    "Omar",
    "Priya",
    "Tomas",
    "Yuki",
    "Sofia",
    "Arjun",
    "Elena",
    "Felix",
    "Hana",
    "Ibrahim",
    "Julia",
    "Lucas",
    "Mei",
    "Nora",
    "Pavel",
    "Rosa",
    "Samir",
    "Tara",
    "Victor",
    "Wen",
    "Zara",
    "Diego",
    "Chen",
    "Amara",
)
SURNAMES: tuple[str, ...] = (
    "Smith",
    "Lee",
    "Chen",
    "Garcia",
    "Novak",
    "Okafor",
    "Tanaka",
    "Rossi",
    "Kumar",
    "Petrov",
    "Silva",
    "Nguyen",
    "Berg",
    "Haddad",
    "Kowalski",
    "Moreau",
    "Ivanova",
    "Lindqvist",
    "Mendes",
    "Park",
    "Schulz",
    "Yamada",
    "Adeyemi",
    "Bauer",
    "Costa",
    "Dubois",
    "Eriksen",
    "Fischer",
    "Gupta",
    "Horvat",
    "Jensen",
    "Kim",
    "Larsen",
    "Meyer",
    "Ortiz",
    "Quinn",
)
AFFILIATIONS: tuple[str, ...] = (
    "Synthetic Institute of Technology",
    "University of Northvale",
    "Eastbrook University",
    "Institute for Machine Reasoning",
    "Lakeside AI Lab",
    "Westfield University",
    "Center for Learning Systems",
)

# Concepts a reference is cited for: its title is built from the concept, and a body
# sentence cites it for that concept, so "which work is cited for X" has one answer.
CONCEPT_ADJECTIVES: tuple[str, ...] = (
    "curriculum",
    "contrastive",
    "momentum",
    "sparse",
    "hierarchical",
    "adaptive",
    "low-rank",
    "spectral",
    "causal",
    "multi-scale",
    "progressive",
    "stochastic",
    "gated",
    "retrieval-augmented",
    "self-supervised",
    "bidirectional",
)
CONCEPT_NOUNS: tuple[str, ...] = (
    "negative sampling",
    "warmup schedule",
    "token pruning",
    "positional encoding",
    "data augmentation",
    "layer normalization",
    "knowledge distillation",
    "attention routing",
    "feature alignment",
    "label smoothing",
    "memory bank",
    "calibration",
    "prompt tuning",
    "beam decoding",
    "quantization",
    "pretraining objective",
)
TITLE_TAILS: tuple[str, ...] = (
    "for Efficient Representation Learning",
    "for Robust Generalization",
    "Revisited",
    "at Scale",
    "for Foundation Models",
    "with Theoretical Guarantees",
    "for Data-Efficient Training",
    "in Practice",
    "under Distribution Shift",
    "for Long Contexts",
    "without Labels",
    "for Multilingual Models",
    "via Implicit Feedback",
    "for Vision-Language Models",
    "in Low-Resource Settings",
    "for Structured Prediction",
)
REFERENCE_VENUES: tuple[str, ...] = (
    "ICML",
    "NeurIPS",
    "ICLR",
    "ACL",
    "EMNLP",
    "CVPR",
    "ICCV",
    "AAAI",
    "TACL",
    "JMLR",
)

HARDWARE: tuple[str, ...] = (
    "8 NVIDIA A100 GPUs",
    "4 NVIDIA H100 GPUs",
    "a single NVIDIA RTX 4090 GPU",
    "2 NVIDIA A6000 GPUs",
    "8 NVIDIA V100 GPUs",
    "16 TPU v4 cores",
    "4 NVIDIA L40S GPUs",
)
OPTIMIZERS: tuple[str, ...] = ("AdamW", "Adam", "SGD with momentum", "Adafactor", "LAMB", "Lion")
LEARNING_RATES: tuple[str, ...] = ("1e-5", "2e-5", "5e-5", "1e-4", "3e-4", "5e-4", "1e-3")
BATCH_SIZES: tuple[int, ...] = (16, 32, 64, 128, 256, 512, 1024)
EPOCH_COUNTS: tuple[int, ...] = (3, 5, 10, 20, 30, 50, 100)
LOSS_WEIGHTS: tuple[str, ...] = ("0.05", "0.1", "0.2", "0.3", "0.5", "1.0", "2.0")
MOMENTUMS: tuple[str, ...] = ("0.9", "0.95", "0.99", "0.995", "0.999")
HYPERPARAMETERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("number of mixing layers", ("1", "2", "4", "8", "16")),
    ("number of retrieved neighbours", ("5", "10", "20", "50", "100")),
    ("prototype bank size", ("64", "128", "256", "512", "1024")),
    ("temperature", ("0.01", "0.05", "0.1", "0.5", "1.0")),
    ("rank of the adapters", ("4", "8", "16", "32", "64")),
)
TRAINING_FRACTIONS: tuple[str, ...] = ("1%", "5%", "10%", "25%", "50%")

# A small grammar for filler prose: opener + subject + verb + object + tail gives thousands
# of distinct sentences, so papers can grow to any length without repeating themselves.
FILLER_OPENERS: tuple[str, ...] = (
    "",
    "In practice, ",
    "Empirically, ",
    "Moreover, ",
    "In addition, ",
    "Notably, ",
    "As a result, ",
    "Intuitively, ",
    "At the same time, ",
    "Interestingly, ",
    "In our experiments, ",
    "By construction, ",
)
FILLER_SUBJECTS: tuple[str, ...] = (
    "the {comp}",
    "{method}",
    "our approach",
    "the training signal",
    "the learned representation",
    "this design",
    "the proposed objective",
    "the full model",
    "each component",
    "the strongest baseline",
    "the encoder",
    "joint training",
)
FILLER_VERBS: tuple[str, ...] = (
    "reduces the variance of",
    "improves the robustness of",
    "simplifies the optimization of",
    "stabilizes",
    "regularizes",
    "complements",
    "sharpens",
    "makes better use of",
    "changes the behaviour of",
    "depends only weakly on",
    "is sensitive to",
    "benefits from",
)
FILLER_OBJECTS: tuple[str, ...] = (
    "the downstream predictions",
    "long inputs",
    "rare cases",
    "the intermediate representations",
    "the gradient signal",
    "the retrieval stage",
    "noisy examples",
    "the decision boundary",
    "out-of-domain inputs",
    "the attention patterns",
    "the calibration of its outputs",
    "hard negatives",
)
FILLER_TAILS: tuple[str, ...] = (
    "",
    " without additional supervision",
    " at negligible cost",
    " on {dataset}",
    " for {task}",
    " during early training",
    " when data is scarce",
    " across all settings we consider",
    " in the low-resource regime",
    " compared with prior designs",
)
