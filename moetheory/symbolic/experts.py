r"""Expert families of the seeds as SymPy expressions with named parameters.

Every expert is a function :math:`h(x, \eta)` of a scalar input :math:`x` (input dimension
:math:`d = 1`) and a tuple of named real parameters :math:`\eta`. Feed-forward experts of seed 002
(Example after
Definition 1) are ``φ(a x + b)``; the two-layer experts of seed 000 (reply to Q1) are
``φ(x W1 + b1) W2 (+ b2)`` with a small hidden width. ReLU is written as the piecewise
function ``Piecewise((z, z > 0), (0, True))`` so that SymPy differentiates it branch by
branch, which is the almost-everywhere derivative.

Examples
--------
>>> e = get_expert("ffn-relu")
>>> e.params
(a, b)
>>> e.expr.subs({e.x: 2, e.params[0]: 1, e.params[1]: -1})
1
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import sympy as sp

from moetheory._doccer import fill_doc
from moetheory.symbolic._docs import REFERENCES

__all__ = [
    "EXPERTS",
    "Expert",
    "X",
    "ffn",
    "gelu",
    "get_expert",
    "linear",
    "poly_expert",
    "relu",
    "sigmoid",
    "two_layer",
]

#: The scalar input of every expert.
X = sp.Symbol("x", real=True)


@dataclass(frozen=True)
@fill_doc(REFERENCES)
class Expert:
    r"""An expert function :math:`h(x, \eta)` of a scalar input with named parameters.

    Parameters
    ----------
    name : str
        Short identifier, e.g. ``"ffn-tanh"`` (a key of :data:`EXPERTS` for the named
        families).
    expr : sympy.Expr
        The expression :math:`h(x, \eta)`.
    x : sympy.Symbol
        The input variable (:data:`X` for every family here).
    params : tuple of sympy.Symbol
        The parameters :math:`\eta` in a fixed order.
    description : str
        The formula in the seeds' words.

    Raises
    ------
    TypeError
        If a field is missing (the dataclass constructor); the fields are not validated.

    See Also
    --------
    get_expert : the named families.
    ffn, two_layer : constructors of the feed-forward families.

    Notes
    -----
    Input dimension :math:`d = 1`: the checks that use experts (strong identifiability,
    linear independence of :math:`h` and its derivatives) are about the functional form in
    :math:`(x, \eta)`, and a scalar input already exhibits the failures the seeds discuss,
    e.g. :math:`\partial h/\partial a = x\, \partial h/\partial b` for every expert of the form
    :math:`\varphi(a x + b)`. The instance is frozen.

    %(references)s

    Examples
    --------
    >>> e = Expert("square", X**2, X, (), "h(x) = x^2")
    >>> sp.diff(e.expr, e.x)
    2*x
    """

    name: str
    expr: sp.Expr
    x: sp.Symbol
    params: tuple[sp.Symbol, ...]
    description: str


#: The docstring parts of the activations (:func:`moetheory._doccer.fill_doc`): their
#: argument, the error of the smooth ones, then the References section.
_ACTIVATION_DOC: dict[str, str] = {
    **REFERENCES,
    "parameters": """Parameters
----------
z : sympy.Expr
    The pre-activation.""",
    "raises": """Raises
------
TypeError
    If ``z`` cannot be combined with SymPy expressions.""",
}


@fill_doc(_ACTIVATION_DOC)
def relu(z: sp.Expr) -> sp.Expr:
    r"""ReLU, :math:`\max(z, 0)`, as a piecewise expression.

    %(parameters)s

    Returns
    -------
    sympy.Expr
        ``Piecewise((z, z > 0), (0, True))``; a number for a numeric ``z``.

    Raises
    ------
    TypeError
        If ``z > 0`` cannot be formed (e.g. ``z`` is not real-valued).

    See Also
    --------
    gelu, sigmoid : the other activations.
    ffn : the FFN expert built on an activation.

    Notes
    -----
    Written as a ``Piecewise`` rather than ``Max(z, 0)`` so that SymPy differentiates it
    branch by branch: the derivative is the Heaviside function almost everywhere, which is
    the derivative the identifiability arguments use.

    Examples
    --------
    >>> relu(sp.Integer(-3)), relu(sp.Integer(2))
    (0, 2)
    >>> sp.diff(relu(X), X)
    Piecewise((1, x > 0), (0, True))
    """
    return sp.Piecewise((z, z > 0), (0, True))


@fill_doc(_ACTIVATION_DOC)
def sigmoid(z: sp.Expr) -> sp.Expr:
    r"""The logistic function :math:`1/(1 + e^{-z})`.

    %(parameters)s

    Returns
    -------
    sympy.Expr
        :math:`\sigma(z) = 1/(1 + e^{-z})`.

    %(raises)s

    See Also
    --------
    relu, gelu : the other activations.

    Notes
    -----
    :math:`\sigma(z) = \frac12\big(1 + \tanh(z/2)\big)` and
    :math:`\sigma' = \sigma(1 - \sigma)`. Not among the activations of the Example after
    Definition 1 of [1]_ (ReLU, :math:`\tanh`, :math:`z^p`); an affine change of
    :math:`\tanh`, added as the common smooth activation.

    %(references)s

    Examples
    --------
    >>> sigmoid(sp.Integer(0))
    1/2
    """
    return 1 / (1 + sp.exp(-z))


@fill_doc(_ACTIVATION_DOC)
def gelu(z: sp.Expr) -> sp.Expr:
    r"""GELU in its exact erf form, :math:`z\,\Phi(z)`.

    %(parameters)s

    Returns
    -------
    sympy.Expr
        :math:`z\,\Phi(z) = \frac{z}{2}\big(1 + \operatorname{erf}(z/\sqrt2)\big)`,
        :math:`\Phi` the standard normal CDF.

    %(raises)s

    See Also
    --------
    relu, sigmoid : the other activations.

    Notes
    -----
    The exact erf form, not the tanh approximation, so that derivatives are exact.

    Examples
    --------
    >>> gelu(sp.Integer(0))
    0
    >>> sp.diff(gelu(X), X).subs(X, 0)
    1/2
    """
    return z * (1 + sp.erf(z / sp.sqrt(2))) / 2


@fill_doc(REFERENCES)
def linear() -> Expert:
    r"""The linear expert :math:`h(x, (a, b)) = a x + b` (seed 002, Example after Definition 1).

    Returns
    -------
    Expert
        Named ``"linear"``, parameters ``(a, b)``.

    See Also
    --------
    ffn : the FFN experts :math:`\varphi(a x + b)`.
    get_expert : the families by name.

    Notes
    -----
    The Example after Definition 1 of [1]_ states that the linear expert fails strong
    identifiability (the condition asks for linearly independent derivatives of :math:`h`);
    its second derivatives in :math:`(a, b)`, for one, vanish identically.

    %(references)s

    Examples
    --------
    >>> linear().expr
    a*x + b
    """
    a, b = sp.symbols("a b", real=True)
    return Expert("linear", a * X + b, X, (a, b), "h(x,(a,b)) = a^T x + b")


@fill_doc(REFERENCES)
def ffn(activation: str) -> Expert:
    r"""The one-layer FFN expert :math:`h(x, (a, b)) = \varphi(a x + b)` (seed 002, Example).

    Parameters
    ----------
    activation : {"relu", "tanh", "sigmoid", "gelu", "poly2", "poly3"}
        The activation :math:`\varphi`; ``polyP`` is :math:`z^P`.

    Returns
    -------
    Expert
        Named ``"ffn-<activation>"``, parameters ``(a, b)``.

    Raises
    ------
    ValueError
        If ``activation`` is not one of the six names.

    See Also
    --------
    two_layer : the two-layer experts of the rebuttal.
    relu, sigmoid, gelu : the activations.

    Notes
    -----
    The Example after Definition 1 of [1]_ states that :math:`\varphi(a^\top x + b)` is
    strongly identifiable for :math:`\varphi = \mathrm{ReLU}`, :math:`\tanh` and
    :math:`z^p` with :math:`p \ge 2`, and that the linear expert is not; sigmoid and GELU
    are added here as common smooth activations. The checks test these statements rather
    than assume them.

    %(references)s

    Examples
    --------
    >>> ffn("poly2").expr
    (a*x + b)**2
    >>> ffn("softplus")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: activation must be one of [...], got 'softplus'
    """
    acts: dict[str, Callable[[sp.Expr], sp.Expr]] = {
        "relu": relu,
        "tanh": sp.tanh,
        "sigmoid": sigmoid,
        "gelu": gelu,
        "poly2": lambda z: z**2,
        "poly3": lambda z: z**3,
    }
    if activation not in acts:
        raise ValueError(f"activation must be one of {sorted(acts)}, got {activation!r}")
    a, b = sp.symbols("a b", real=True)
    return Expert(
        f"ffn-{activation}",
        acts[activation](a * X + b),
        X,
        (a, b),
        f"h(x,(a,b)) = {activation}(a^T x + b)",
    )


@fill_doc(REFERENCES)
def two_layer(activation: str, width: int = 1, last_bias: bool = True) -> Expert:
    r"""Two-layer FFN expert :math:`\varphi(x W_1 + b_1) W_2 \,(+\, b_2)` (seed 000, reply to Q1).

    Parameters
    ----------
    activation : {"relu", "gelu"}
        The activation :math:`\varphi`.
    width : int, optional
        Hidden width, 1 to 4 (1-2 suffice for the arguments in the checks); default 1.
    last_bias : bool, optional
        Whether the last layer has the bias :math:`b_2`; default True.

    Returns
    -------
    Expert
        Named ``"two-layer-<activation>-bias"`` or ``"-nobias"``, parameters
        ``(W1_1, b1_1, W2_1, ..., [b2])``.

    Raises
    ------
    ValueError
        If ``activation`` is unknown or ``width`` is not an integer in [1, 4].

    See Also
    --------
    ffn : the one-layer experts.

    Notes
    -----
    .. math:: h(x, \eta) = \sum_{i=1}^{w} \varphi(W_{1,i} x + b_{1,i})\, W_{2,i} + b_2 .

    In the rebuttal (seed 000, reply to Q1) the authors state that the two-layer ReLU
    expert is not strongly identifiable while the two-layer GELU expert is, and that ReLU
    without the last bias (:math:`\varphi(x W_1 + b_1) W_2`) is; the checks test these
    statements.

    %(references)s

    Examples
    --------
    >>> two_layer("relu", width=1, last_bias=False).params
    (W1_1, b1_1, W2_1)
    >>> two_layer("gelu", width=2).name
    'two-layer-gelu-bias'
    """
    acts = {"relu": relu, "gelu": gelu}
    if activation not in acts:
        raise ValueError(f"activation must be one of {sorted(acts)}, got {activation!r}")
    if not isinstance(width, int) or not 1 <= width <= 4:
        raise ValueError(f"width must be an integer in [1, 4], got {width!r}")
    params: list[sp.Symbol] = []
    expr: sp.Expr = sp.Integer(0)
    for i in range(1, width + 1):
        w1, b1, w2 = sp.symbols(f"W1_{i} b1_{i} W2_{i}", real=True)
        params += [w1, b1, w2]
        expr += acts[activation](w1 * X + b1) * w2
    tag = "bias" if last_bias else "nobias"
    text = f"{activation}(x W1 + b1) W2" + (" + b2" if last_bias else "")
    if last_bias:
        b2 = sp.Symbol("b2", real=True)
        params.append(b2)
        expr += b2
    return Expert(f"two-layer-{activation}-{tag}", expr, X, tuple(params), text)


@fill_doc(REFERENCES)
def poly_expert() -> Expert:
    r"""The polynomial expert :math:`h(x, \eta) = (\eta x)^2` of seeds 002 and 000.

    Returns
    -------
    Expert
        Named ``"poly-expert"``, parameter ``(eta,)``.

    See Also
    --------
    ffn : ``ffn("poly2")`` is :math:`(a x + b)^2`.

    Notes
    -----
    :math:`|h(x, \hat\eta) - h(x, \eta^*)| = |\hat\eta - \eta^*|\,|\hat\eta + \eta^*|\,x^2`:
    the paper [1]_ uses this expert to argue that the expert estimation rate is
    the parameter estimation rate. Note :math:`h(x, \eta) = h(x, -\eta)`, so :math:`\eta` is
    identifiable only up to sign.

    %(references)s

    Examples
    --------
    >>> poly_expert().expr
    eta**2*x**2
    """
    eta = sp.Symbol("eta", real=True)
    return Expert("poly-expert", (eta * X) ** 2, X, (eta,), "h(x, eta) = (eta x)^2")


#: Constructors of the named expert families, width 1 for the two-layer ones.
EXPERTS: dict[str, Callable[[], Expert]] = {
    "linear": linear,
    "ffn-relu": lambda: ffn("relu"),
    "ffn-tanh": lambda: ffn("tanh"),
    "ffn-sigmoid": lambda: ffn("sigmoid"),
    "ffn-gelu": lambda: ffn("gelu"),
    "ffn-poly2": lambda: ffn("poly2"),
    "ffn-poly3": lambda: ffn("poly3"),
    "two-layer-relu-bias": lambda: two_layer("relu", 1, True),
    "two-layer-relu-nobias": lambda: two_layer("relu", 1, False),
    "two-layer-gelu-bias": lambda: two_layer("gelu", 1, True),
    "two-layer-gelu-nobias": lambda: two_layer("gelu", 1, False),
    "poly-expert": poly_expert,
}


def get_expert(name: str) -> Expert:
    """The expert family called ``name``.

    Parameters
    ----------
    name : str
        A key of :data:`EXPERTS`, e.g. ``"ffn-tanh"`` or ``"two-layer-relu-nobias"``.

    Returns
    -------
    Expert
        A fresh instance of the family.

    Raises
    ------
    ValueError
        If ``name`` is not a key of :data:`EXPERTS`.

    See Also
    --------
    EXPERTS : the names and their constructors.
    Expert : the returned type.

    Notes
    -----
    Families with arguments (:func:`ffn`, :func:`two_layer`) appear under one name per
    argument used by the checks; the two-layer ones have width 1.

    Examples
    --------
    >>> get_expert("linear").description
    'h(x,(a,b)) = a^T x + b'
    >>> get_expert("ffn-relu").params
    (a, b)
    """
    if name not in EXPERTS:
        raise ValueError(f"name must be one of {sorted(EXPERTS)}, got {name!r}")
    return EXPERTS[name]()
